// POST /admin/v1/stores/{storeId}/activity: one record of what the rest of the platform saw, as a
// union discriminated on `kind`. Each kind carries the fields the spec lists for its record.
import { Type, type Static } from 'typebox';
import { Instant, Nullable, Uuid } from '../../platform/http/schemas.ts';

const Text = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })));
const OptInstant = Type.Optional(Nullable(Instant));
const Day = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
const ClockTime = Type.String({
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$',
  description: 'HH:MM or HH:MM:SS',
});
const Pence = Type.Integer({ minimum: 0, maximum: 2_000_000_000 });

/** Common to every kind. `id` lets a sender re-send or update the same record (an upsert). */
const common = {
  id: Type.Optional(Uuid),
  customer_id: Uuid,
  /** Consent captured with this activity (for example a checkout opt-in box); latest wins. */
  marketing_opted_in: Type.Optional(Type.Boolean()),
};

export const CLASS_BOOKING_STATUSES = [
  'attended',
  'no_show',
  'cancelled',
  'confirmed',
  'waitlisted',
  'promotion_pending',
  'promotion_expired',
] as const;
export const JOURNEY_TYPES = [
  'joined',
  'stamp',
  'voucher_earned',
  'voucher_redeemed',
  'order',
  'message',
  'email',
  'journey',
  'moment',
  'class_booking',
  'membership',
] as const;
export const JOURNEY_CHANNELS = ['in_store', 'in_app', 'email', 'journey', 'moment', 'gym'] as const;
export const ORDER_STATUSES = ['paid', 'refunded', 'partially_refunded', 'cancelled'] as const;

export const ClassBookingActivity = Type.Object(
  {
    kind: Type.Literal('class_booking'),
    ...common,
    status: Type.Enum(CLASS_BOOKING_STATUSES),
    booking_date: Type.Optional(Nullable(Day)),
    booking_source: Type.Optional(Nullable(Type.Enum(['app', 'staff', 'drop-in']))),
    class_name: Text(200),
    class_category: Text(200),
    class_instructor_name: Text(200),
    occurrence_instructor_name: Text(200),
    scheduled_date: Type.Optional(Nullable(Day)),
    start_time: Type.Optional(Nullable(ClockTime)),
    end_time: Type.Optional(Nullable(ClockTime)),
    attended_at: OptInstant,
    no_show_marked_at: OptInstant,
    cancelled_at: OptInstant,
    /** When the booking was made; defaults to now. Back-fills send the original instant. */
    created_at: Type.Optional(Instant),
  },
  { $id: 'ClassBookingActivity', additionalProperties: false },
);

export const StampActivity = Type.Object(
  {
    kind: Type.Literal('stamp'),
    ...common,
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    title: Text(200),
    created_at: Type.Optional(Instant),
  },
  { $id: 'StampActivity', additionalProperties: false },
);

export const OrderActivity = Type.Object(
  {
    kind: Type.Literal('order'),
    ...common,
    status: Type.Optional(Type.Enum(ORDER_STATUSES)),
    /** What the customer paid (after any promotion). */
    amount_pence: Pence,
    refunded_pence: Type.Optional(Pence),
    promo_discount_pence: Type.Optional(Pence),
    applied_promo_code: Text(100),
    /** Defaults to the store's currency. */
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
    title: Text(200),
    created_at: Type.Optional(Instant),
  },
  { $id: 'OrderActivity', additionalProperties: false },
);

export const JourneyEventActivity = Type.Object(
  {
    kind: Type.Literal('journey_event'),
    ...common,
    type: Type.Enum(JOURNEY_TYPES),
    channel: Type.Optional(Nullable(Type.Enum(JOURNEY_CHANNELS))),
    /** When it happened; defaults to now. */
    occurred_at: Type.Optional(Instant),
    title: Text(200),
    subtitle: Text(200),
    status: Text(100),
    detail: Text(2000),
    campaign_name: Text(200),
    opened: Type.Optional(Nullable(Type.Boolean())),
    clicked: Type.Optional(Nullable(Type.Boolean())),
    returning_visit_at: OptInstant,
    return_days: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100_000 }))),
    amount_pence: Type.Optional(Nullable(Pence)),
    refunded_pence: Type.Optional(Nullable(Pence)),
    promo_discount_pence: Type.Optional(Nullable(Pence)),
    applied_promo_code: Text(100),
    currency: Type.Optional(Nullable(Type.String({ pattern: '^[A-Z]{3}$' }))),
    auto_sent: Type.Optional(Nullable(Type.Boolean())),
    result_kind: Text(100),
    result_at: OptInstant,
    result_value_pence: Type.Optional(Nullable(Pence)),
  },
  { $id: 'JourneyEventActivity', additionalProperties: false },
);

type ActivityUnion =
  | Static<typeof ClassBookingActivity>
  | Static<typeof StampActivity>
  | Static<typeof OrderActivity>
  | Static<typeof JourneyEventActivity>;

/** The named branches, registered with addSharedSchemas so the discriminator can name each by $ref. */
export const ACTIVITY_KINDS = [
  ClassBookingActivity,
  StampActivity,
  OrderActivity,
  JourneyEventActivity,
] as unknown as Array<{ $id: string }>;

/** Tagged by `kind` (OpenAPI discriminator; Ajv validates only the branch the tag selects). */
export const ActivityBody = Type.Unsafe<ActivityUnion>({
  type: 'object',
  required: ['kind'],
  discriminator: { propertyName: 'kind' },
  oneOf: ACTIVITY_KINDS.map((kind) => ({ $ref: `${kind.$id}#` })),
});
export type ActivityBody = ActivityUnion;
export type ClassBookingActivity = Static<typeof ClassBookingActivity>;
export type StampActivity = Static<typeof StampActivity>;
export type OrderActivity = Static<typeof OrderActivity>;
export type JourneyEventActivity = Static<typeof JourneyEventActivity>;

export const ActivityParams = Type.Object({ storeId: Uuid }, { additionalProperties: false });

export const ActivityResponse = Type.Object({
  activity: Type.Object({
    kind: Type.String(),
    id: Uuid,
    customer_id: Uuid,
    /** false when `id` named an existing record, which was updated instead. */
    created: Type.Boolean(),
  }),
});
