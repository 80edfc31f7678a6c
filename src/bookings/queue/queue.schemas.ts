// Request and response schemas of the walk-in queue, field for field as the spec shows them
// (join is not in the spec: its shape is recorded in docs/decisions/queue.md).
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

/** Walk-in queue entry. */
export const QueueEntry = Type.Object({
  entry_id: Uuid,
  store_id: Uuid,
  customer_id: NullableUuid,
  guest_name: NullableString,
  guest_phone: NullableString,
  service_id: NullableUuid,
  preferred_unit_id: NullableUuid,
  party_size: Type.Integer(),
  status: Type.String(),
  joined_at: Instant,
  called_at: NullableInstant,
  quoted_wait_min: Nullable(Type.Integer()),
  appointment_id: NullableUuid,
  queue_position: Nullable(Type.Integer()),
  expected_wait_min: Nullable(Type.Integer()),
  expected_start: NullableInstant,
  suggested_unit_id: NullableUuid,
});
export type QueueEntry = Static<typeof QueueEntry>;

export const QueueListQuery = Type.Object({ store_id: StoreIdField }, { additionalProperties: false });

export const QueueList = Type.Object({
  store_id: Uuid,
  walkin_mode: Nullable(
    Type.Union([Type.Literal('appointments_only'), Type.Literal('walk_ins_only'), Type.Literal('mixed')]),
  ),
  called_hold_minutes: Nullable(Type.Integer()),
  entries: Type.Array(QueueEntry),
});
export type QueueList = Static<typeof QueueList>;

export const JoinBody = Type.Object(
  {
    store_id: StoreIdField,
    customer_id: Type.Optional(NullableUuid),
    guest_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 120 }))),
    // A UK mobile is stored as E.164; any other number as typed (guestPhone in uk-mobile.ts).
    guest_phone: Type.Optional(Nullable(Type.String({ pattern: '^\\+?[0-9][0-9 ()-]{4,30}$' }))),
    service_id: Type.Optional(NullableUuid),
    preferred_unit_id: Type.Optional(NullableUuid),
    party_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    client_token: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type JoinBody = Static<typeof JoinBody>;

export const JoinResult = Type.Object({
  entry: QueueEntry,
  /** true when a retry with the same client_token returned the entry the first call created. */
  reused: Type.Boolean(),
});
export type JoinResult = Static<typeof JoinResult>;

export const EntryBody = Type.Object({ store_id: StoreIdField, entry_id: Uuid }, { additionalProperties: false });
export type EntryBody = Static<typeof EntryBody>;

export const CallResult = Type.Object({
  entry_id: Uuid,
  called: Type.Boolean(),
  hold_minutes: Type.Integer(),
  called_at: NullableInstant,
});
export type CallResult = Static<typeof CallResult>;

export const AssignBody = Type.Object(
  {
    store_id: StoreIdField,
    entry_id: Uuid,
    unit_id: Uuid,
    duration_min: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1440 }))),
    override: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
export type AssignBody = Static<typeof AssignBody>;

export const AssignResult = Type.Object({
  entry_id: Uuid,
  appointment_id: Uuid,
  assigned: Type.Boolean(),
});
export type AssignResult = Static<typeof AssignResult>;

export const RemoveBody = Type.Object(
  {
    store_id: StoreIdField,
    entry_id: Uuid,
    status: Type.Union([Type.Literal('left'), Type.Literal('no_show')]),
  },
  { additionalProperties: false },
);
export type RemoveBody = Static<typeof RemoveBody>;

export const RemoveResult = Type.Object({
  entry_id: Uuid,
  status: Type.String(),
  noop: Type.Boolean(),
});
export type RemoveResult = Static<typeof RemoveResult>;
