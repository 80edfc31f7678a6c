// Request and response schemas of the appointment operations, field for field as the spec shows them.
import { Type, type Static } from 'typebox';
import {
  Instant,
  Nullable,
  NullableInstant,
  NullableString,
  NullableUuid,
  StoreIdField,
  Uuid,
} from '../../platform/http/schemas.ts';

/** The Appointment record's fields (returned by create; the diary shows most of them). */
export const AppointmentFields = {
  id: Uuid,
  store_id: Uuid,
  unit_id: Uuid,
  service_id: NullableUuid,
  customer_id: NullableUuid,
  guest_name: NullableString,
  guest_email: NullableString,
  guest_phone: NullableString,
  starts_at: Instant,
  ends_at: Instant,
  status: Type.String(),
  payment_status: Type.String(),
  price_pence: Type.Integer(),
  deposit_pence: Type.Integer(),
  balance_pence: Type.Integer(),
  currency: Type.String(),
  party_size: Type.Integer(),
  children: Type.Integer(),
  high_chairs: Type.Integer(),
  source: Type.String(),
  is_override: Type.Boolean(),
};

/** Appointment (returned by create). */
export const Appointment = Type.Object(AppointmentFields);
export type Appointment = Static<typeof Appointment>;

export const CreateBody = Type.Object(
  {
    store_id: StoreIdField,
    unit_id: Uuid,
    service_id: Type.Optional(NullableUuid),
    starts_at: Instant,
    ends_at: Instant,
    customer_id: Type.Optional(NullableUuid),
    guest_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 80 }))),
    guest_email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
    guest_phone: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 32 }))),
    party_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
    price_pence: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
    block_starts_at: Type.Optional(NullableInstant),
    block_ends_at: Type.Optional(NullableInstant),
    override: Type.Optional(Type.Boolean({ default: false })),
    client_token: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type CreateBody = Static<typeof CreateBody>;

export const CreateResponse = Type.Object({ appointment: Appointment, reused: Type.Boolean() });
export type CreateResponse = Static<typeof CreateResponse>;

export const CancelBody = Type.Object(
  {
    store_id: StoreIdField,
    appointment_id: Uuid,
    reason: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  },
  { additionalProperties: false },
);
export type CancelBody = Static<typeof CancelBody>;

export const CancelResponse = Type.Object({
  appointment_id: Uuid,
  cancelled: Type.Boolean(),
  noop: Type.Boolean(),
});
export type CancelResponse = Static<typeof CancelResponse>;

/** check-in, complete and no-show share one body and one response. */
export const StatusBody = Type.Object(
  { store_id: StoreIdField, appointment_id: Uuid },
  { additionalProperties: false },
);
export type StatusBody = Static<typeof StatusBody>;

export const StatusResponse = Type.Object({ appointment_id: Uuid, status: Type.String(), noop: Type.Boolean() });
export type StatusResponse = Static<typeof StatusResponse>;

export const RescheduleBody = Type.Object(
  {
    store_id: StoreIdField,
    appointment_id: Uuid,
    unit_id: Uuid,
    starts_at: Instant,
    ends_at: Instant,
    block_starts_at: Type.Optional(NullableInstant),
    block_ends_at: Type.Optional(NullableInstant),
    override: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
export type RescheduleBody = Static<typeof RescheduleBody>;

export const RescheduleResponse = Type.Object({
  appointment_id: Uuid,
  unit_id: Uuid,
  starts_at: Instant,
  ends_at: Instant,
  moved_in_place: Type.Boolean(),
});
export type RescheduleResponse = Static<typeof RescheduleResponse>;

export const SETTLE_METHODS = ['cash', 'card_machine'] as const;
export type SettleMethod = (typeof SETTLE_METHODS)[number];
const Method = Type.Union([Type.Literal('cash'), Type.Literal('card_machine')]);

export const SettleBody = Type.Object(
  { store_id: StoreIdField, appointment_id: Uuid, method: Method },
  { additionalProperties: false },
);
export type SettleBody = Static<typeof SettleBody>;

export const SettleResponse = Type.Object({
  outcome: Type.Union([Type.Literal('settled'), Type.Literal('already_settled'), Type.Literal('nothing_owed')]),
  appointment_id: Uuid,
  status: Type.String(),
  payment_status: Type.String(),
  outstanding_pence: Type.Integer(),
  collected_pence: Type.Integer(),
  settled_total_pence: Type.Integer(),
  currency: Type.String(),
  method: Nullable(Method),
  settled_at: NullableInstant,
  settled_by_you: Type.Boolean(),
  settled_by_name: NullableString,
});
export type SettleResponse = Static<typeof SettleResponse>;
