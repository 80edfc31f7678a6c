// Request and response schemas of the webhook endpoints surface (/api/v1/webhooks/endpoints).
import { Type, type Static } from 'typebox';
import { Instant, Nullable, NullableString, StoreIdField, Uuid } from '../platform/http/schemas.ts';

const Url = Type.String({
  minLength: 1,
  maxLength: 2000,
  description:
    'Where deliveries are POSTed. https when NODE_ENV=production; a host that resolves to a private, loopback or link-local address is refused (WEBHOOK_TARGET_REFUSED) unless WEBHOOK_ALLOW_PRIVATE_TARGETS=true.',
});
const EventTypes = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 100,
  description:
    'Event types to deliver (unknown types are refused with 400). Omitted or null: every type, including types added later.',
});
const Description = Type.String({ maxLength: 500 });

export const Endpoint = Type.Object({
  id: Uuid,
  url: Type.String(),
  description: NullableString,
  event_types: Nullable(Type.Array(Type.String())),
  enabled: Type.Boolean(),
  disabled_reason: Nullable(
    Type.String({
      description:
        "Why the service disabled it: 'gone' (the receiver answered 410) or 'failing' (every attempt failed for 5 days); null when enabled or disabled by the merchant",
    }),
  ),
  created_at: Instant,
  updated_at: Instant,
});

export const EndpointWithSecret = Type.Object({
  ...Endpoint.properties,
  secret: Type.String({
    description: 'whsec_ + base64 key for Standard Webhooks signatures. Shown only on create and rotate.',
  }),
});

export const CreateBody = Type.Object(
  {
    store_id: Type.Optional(StoreIdField),
    url: Url,
    event_types: Type.Optional(Nullable(EventTypes)),
    description: Type.Optional(Nullable(Description)),
  },
  { additionalProperties: false },
);
export type CreateBody = Static<typeof CreateBody>;

export const UpdateBody = Type.Object(
  {
    store_id: Type.Optional(StoreIdField),
    url: Type.Optional(Url),
    event_types: Type.Optional(Nullable(EventTypes)),
    enabled: Type.Optional(
      Type.Boolean({
        description: 'false pauses deliveries (pending ones wait); true resumes and clears disabled_reason',
      }),
    ),
    description: Type.Optional(Nullable(Description)),
  },
  { additionalProperties: false },
);
export type UpdateBody = Static<typeof UpdateBody>;

export const StoreQuery = Type.Object({ store_id: Type.Optional(StoreIdField) }, { additionalProperties: false });
export const EndpointParams = Type.Object({ endpointId: Uuid }, { additionalProperties: false });
export const DeliveryParams = Type.Object({ endpointId: Uuid, eventId: Uuid }, { additionalProperties: false });

export const DeliveriesQuery = Type.Object(
  {
    store_id: Type.Optional(StoreIdField),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: '1 to 100, default 50' })),
    cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$', description: 'next_cursor of the previous page' })),
  },
  { additionalProperties: false },
);

export const ReplayBody = Type.Object(
  {
    store_id: Type.Optional(StoreIdField),
    since: Type.String({
      format: 'date-time',
      description: 'Every failed delivery dispatched at or after this instant is sent again',
    }),
  },
  { additionalProperties: false },
);

export const Attempt = Type.Object({
  id: Type.String({ description: 'The attempt (log row) id' }),
  event_id: Uuid,
  event_type: Type.String(),
  attempt: Type.Integer({ description: '1 for the first attempt of this event to this endpoint' }),
  attempted_at: Instant,
  succeeded: Type.Boolean(),
  http_status: Nullable(
    Type.Integer({ description: "The receiver's status; null when there was no answer (see error)" }),
  ),
  error: NullableString,
  duration_ms: Type.Integer(),
  response_body: Nullable(Type.String({ description: "At most 1 KB of the receiver's answer" })),
  next_retry_at: Nullable(
    Type.String({ format: 'date-time', description: 'When this failure is tried again; null when it is not' }),
  ),
  delivery_status: Type.String({ description: "The delivery's state now: pending, delivered or failed" }),
});

export const Delivery = Type.Object({
  event_id: Uuid,
  event_type: Type.String(),
  status: Type.String({ description: 'pending, delivered or failed' }),
  attempts: Type.Integer(),
  next_attempt_at: Nullable(Type.String({ format: 'date-time' })),
});

export const EndpointResponse = Type.Object({ endpoint: Endpoint });
export const EndpointSecretResponse = Type.Object({ endpoint: EndpointWithSecret });
export const EndpointListResponse = Type.Object({ endpoints: Type.Array(Endpoint) });
export const DeletedResponse = Type.Object({ deleted: Type.Boolean(), id: Uuid });
export const AttemptsResponse = Type.Object({
  deliveries: Type.Array(Attempt),
  next_cursor: NullableString,
  has_more: Type.Boolean(),
});
export const DeliveryResponse = Type.Object({ delivery: Delivery });
export const ReplayResponse = Type.Object({
  replayed: Type.Integer({ description: 'Deliveries made due again' }),
  since: Instant,
});
