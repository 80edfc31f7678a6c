// The event as the feed, the stream and the webhooks present it, and the feed's request and answer.
import { Type, type Static, type TSchema } from 'typebox';
import { StoreIdField, Uuid } from '../platform/http/schemas.ts';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 500;

const eventFields = {
  id: Type.String({ format: 'uuid', description: "The event id: the receiver's de-duplication key" }),
  type: Type.String({ description: 'The event type, e.g. appointment.created' }),
  store_id: Uuid,
  occurred_at: Type.String({ format: 'date-time', description: 'When the change happened (UTC)' }),
  occurred_at_local: Type.String({ description: 'The same instant as store-local wall time, YYYY-MM-DDTHH:MM:SS' }),
  timezone: Type.String({ description: "The store's IANA zone occurred_at_local is read in" }),
  actor: Type.Union(
    [
      Type.Object(
        {
          type: Type.Union(
            [
              Type.Literal('staff'),
              Type.Literal('api_key'),
              Type.Literal('merchant_token'),
              Type.Literal('customer'),
              Type.Literal('admin'),
              Type.Literal('system'),
            ],
            {
              description:
                'staff: a signed-in staff member; api_key: a store API key; merchant_token: a bearer merchant token; customer: a customer or booking page visitor; admin: the operator surface; system: the service itself',
            },
          ),
          id: Type.Union([Type.String(), Type.Null()], {
            description: "The staff member's, key's, token subject's or customer's id",
          }),
          name: Type.Union([Type.String(), Type.Null()], {
            description:
              'The staff member\'s name, or "API key <name>"; never an email or a phone; null for a customer',
          }),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ],
    {
      description:
        'Who made the change, as the audit trail names them; null on events recorded before actors were (issue 43) and on changes no request made',
    },
  ),
};

const Cursor = Type.String({
  pattern: '^\\d{1,20}\\.\\d{1,19}$',
  description: 'Opaque feed position; resume after it',
});

/** An event with its data schema (the OpenAPI webhooks map uses one per type). */
export function eventSchema(type: string | null, data: TSchema): TSchema {
  return Type.Object({
    ...eventFields,
    ...(type ? { type: Type.Literal(type) } : {}),
    data,
  });
}

/** The event in the feed and the stream: also its cursor. */
export const FeedEvent = Type.Object({
  ...eventFields,
  cursor: Cursor,
  data: Type.Object(
    {},
    {
      additionalProperties: true,
      description: 'The resource after the change; see the webhooks section for each type',
    },
  ),
});
export type FeedEvent = Static<typeof FeedEvent>;

const Types = Type.String({
  maxLength: 2000,
  description: 'Comma-separated event types to include (all when omitted); an unknown type answers 400',
});

export const FeedQuery = Type.Object(
  {
    store_id: StoreIdField,
    after: Type.Optional(
      Type.String({
        maxLength: 64,
        description: "A cursor (next_cursor or an event's cursor); from the beginning of retained history when omitted",
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT })),
    types: Type.Optional(Types),
  },
  { additionalProperties: false },
);
export type FeedQuery = Static<typeof FeedQuery>;

export const FeedResponse = Type.Object({
  events: Type.Array(FeedEvent, { description: 'Oldest first' }),
  next_cursor: Type.String({
    description: "The last returned event's cursor, or the given one when none was returned",
  }),
  has_more: Type.Boolean({ description: 'More events are readable now after next_cursor' }),
});
export type FeedResponse = Static<typeof FeedResponse>;

export const StreamQuery = Type.Object(
  {
    store_id: StoreIdField,
    types: Type.Optional(Types),
    after: Type.Optional(
      Type.String({
        maxLength: 64,
        description: 'Resume after this cursor when the client cannot send Last-Event-ID (the header wins)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type StreamQuery = Static<typeof StreamQuery>;
