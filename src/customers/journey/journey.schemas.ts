// GET /api/v1/customers/{customerId}/journey: the Journey event record (camelCase, as the spec
// shows it) and its cursor page. Every field is always present; null where it does not apply.
import { Type, type Static } from 'typebox';
import { Instant, Nullable, NullableInstant, NullableString, Uuid } from '../../platform/http/schemas.ts';
import { JOURNEY_CHANNELS, JOURNEY_TYPES } from '../activity/activity.schemas.ts';

export const JOURNEY_PAGE = { default: 25, max: 50 } as const;

/** An ISO 8601 instant, optionally followed by `~<event id>` as in nextCursor. */
export const CURSOR_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}(:?[0-9]{2})?)' +
  '(~[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})?$';

export const JourneyParams = Type.Object({ customerId: Uuid }, { additionalProperties: false });

export const JourneyQuery = Type.Object(
  {
    store_id: Uuid,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: JOURNEY_PAGE.max, default: JOURNEY_PAGE.default })),
    before: Type.Optional(
      Type.String({
        pattern: CURSOR_PATTERN,
        description:
          'Events strictly older than this: an ISO 8601 instant, or a nextCursor (the instant of the last event seen, "~", its id)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type JourneyQuery = Static<typeof JourneyQuery>;

const NullableInt = Nullable(Type.Integer());
const NullableBool = Nullable(Type.Boolean());

export const JourneyEvent = Type.Object({
  id: Uuid,
  type: Type.String({ enum: [...JOURNEY_TYPES] }),
  // 'sms': a text the service sent (no channel of the spec's list is SMS).
  channel: Nullable(Type.String({ enum: [...JOURNEY_CHANNELS, 'sms'] })),
  timestamp: Instant,
  title: NullableString,
  subtitle: NullableString,
  status: NullableString,
  detail: NullableString,
  campaignName: NullableString,
  opened: NullableBool,
  clicked: NullableBool,
  returningVisitAt: NullableInstant,
  returnDays: NullableInt,
  amountPence: NullableInt,
  refundedPence: NullableInt,
  promoDiscountPence: NullableInt,
  appliedPromoCode: NullableString,
  currency: NullableString,
  autoSent: NullableBool,
  resultKind: NullableString,
  resultAt: NullableInstant,
  resultValuePence: NullableInt,
});
export type JourneyEvent = Static<typeof JourneyEvent>;

export const JourneyResponse = Type.Object({
  events: Type.Array(JourneyEvent),
  pagination: Type.Object({
    limit: Type.Integer(),
    /** The `before` this page was asked for, or null for the newest page. */
    before: NullableString,
    /** Pass as `before` for the next (older) page; null when there is none. */
    nextCursor: NullableString,
    hasMore: Type.Boolean(),
  }),
  has_store_agreements: Type.Boolean(),
});
