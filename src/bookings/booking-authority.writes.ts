// The booking authority's write functions (db/functions/), each with the request it sends and the
// result body it reads as TypeBox schemas: src/platform/one-statement.ts checks both at the call, and
// test/platform/write-functions.test.ts checks each request schema against the function's
// `req->>'field'` reads. A field renamed on either side fails there, sent by a test or not.
import { Type, type Static } from 'typebox';
import { writeFunction } from '../platform/one-statement.ts';
import { Instant, Nullable, NullableInstant, NullableString, NullableUuid, Uuid } from '../platform/http/schemas.ts';
import {
  Appointment,
  AppointmentFields,
  CreateResponse,
  RescheduleResponse,
} from './appointments/appointments.schemas.ts';
import { ConfirmResponse, HoldResponse, ReleaseResponse } from './holds/holds.schemas.ts';
import { AssignResult } from './queue/queue.schemas.ts';

const strict = { additionalProperties: false } as const;
const Count = Type.Integer({ minimum: 0 });
/** Who made the booking: the merchant's user id, or null for a token with no user. */
const CreatedBy = NullableString;

const { store_id, unit_id, service_id, customer_id, guest_name, guest_email, guest_phone, starts_at, ends_at } =
  AppointmentFields;
/** Where and when a merchant's write puts the visit; block_*: read by bbo_occupied_block, null keeps the service's buffers. */
const Placed = {
  starts_at,
  ends_at,
  block_starts_at: NullableInstant,
  block_ends_at: NullableInstant,
  override: Type.Boolean(),
};

/** The merchant's create (merchant-book.sql): names already trimmed, the email lower-cased. */
export const MerchantBooking = Type.Object(
  {
    store_id,
    unit_id,
    service_id,
    customer_id,
    guest_name,
    guest_email,
    guest_phone,
    party_size: Type.Integer({ minimum: 1 }),
    price_pence: Nullable(Count),
    ...Placed,
    client_token: NullableString,
    created_by: CreatedBy,
  },
  strict,
);
export type MerchantBooking = Static<typeof MerchantBooking>;
export const merchantBook = writeFunction('bbo_merchant_book', MerchantBooking, CreateResponse);

/** A walk-in's seat (queue-seat.sql). duration_min null: bbo_walk_in_minutes (the service's length, else 30). */
export const WalkInSeat = Type.Object(
  {
    store_id: Uuid,
    entry_id: Uuid,
    unit_id: Uuid,
    duration_min: Nullable(Type.Integer({ minimum: 1 })),
    override: Type.Boolean(),
    created_by: CreatedBy,
  },
  strict,
);
export type WalkInSeat = Static<typeof WalkInSeat>;
export const queueSeat = writeFunction('bbo_queue_seat', WalkInSeat, AssignResult);

/** A merchant's move (merchant-reschedule.sql). */
export const MerchantMove = Type.Object({ store_id, appointment_id: Uuid, unit_id, ...Placed }, strict);
export type MerchantMove = Static<typeof MerchantMove>;
export const merchantReschedule = writeFunction('bbo_merchant_reschedule', MerchantMove, RescheduleResponse);

/** What a hold asks for, from the customer's API or the booking page. */
const HoldAsk = {
  store_id: Uuid,
  service_id: Uuid,
  variant_id: NullableUuid,
  addon_ids: Type.Array(Uuid),
  unit_id: NullableUuid,
  party_size: Type.Integer({ minimum: 1 }),
  starts_at: Instant,
  /** A keyed hash of the client address, never the address. */
  client_address_hash: Type.String(),
  address_cap: Count,
};

/** A customer's hold (customer-hold.sql): the caps of src/bookings/holds/hold-caps.ts, counted at this store. */
export const CustomerHold = Type.Object({ ...HoldAsk, customer_id: Uuid, customer_cap: Count }, strict);
export type CustomerHold = Static<typeof CustomerHold>;
export const customerHold = writeFunction('bbo_customer_hold', CustomerHold, HoldResponse);

export const CustomerConfirm = Type.Object({ hold_id: Uuid, customer_id: Uuid, guest_note: NullableString }, strict);
export const customerConfirm = writeFunction('bbo_customer_confirm', CustomerConfirm, ConfirmResponse);

export const CustomerRelease = Type.Object({ hold_id: Uuid, customer_id: Uuid }, strict);
export const customerRelease = writeFunction('bbo_customer_release', CustomerRelease, ReleaseResponse);

/**
 * A guest's hold from the booking page (booking-page.sql), passed on to bbo_customer_hold with no
 * customer. page_session: the browser's page session, which owns the hold until a signed-in customer
 * confirms it. customer_cap is read by bbo_customer_hold; a page hold has no customer to count, so
 * the page never sends it.
 */
export const PageHold = Type.Object({ ...HoldAsk, page_session: Uuid, customer_cap: Type.Optional(Count) }, strict);
export type PageHold = Static<typeof PageHold>;
export const pageHold = writeFunction('bbo_page_hold', PageHold, HoldResponse);

/** The page session's hold a page write acts on (booking-page.sql: the session owns the hold). */
const PageHoldRef = { store_id: Uuid, hold_id: Uuid, page_session: Uuid };

export const PageRelease = Type.Object(PageHoldRef, strict);
export const pageRelease = writeFunction('bbo_page_release', PageRelease, ReleaseResponse);

export const PageConfirm = Type.Object({ ...PageHoldRef, customer_id: Uuid, guest_note: NullableString }, strict);
export const pageConfirm = writeFunction('bbo_page_confirm', PageConfirm, ConfirmResponse);

export const PageReschedule = Type.Object({ ...PageHoldRef, appointment_id: Uuid, customer_id: Uuid }, strict);
export const pageReschedule = writeFunction(
  'bbo_page_reschedule',
  PageReschedule,
  Type.Object({ appointment: Appointment }),
);

/**
 * One row of an appointment import, checked and normalised by src/imports/ (import-appointments.sql
 * reads each row's keys as the columns of jsonb_to_recordset). local_start: store-local wall time,
 * YYYY-MM-DD HH:MM; client_token: the row's external id, made a token by the import.
 */
export const ImportedAppointment = Type.Object(
  {
    line: Type.Integer({ minimum: 1 }),
    unit_id: Uuid,
    service_id: NullableUuid,
    local_start: Type.String(),
    minutes: Type.Integer({ minimum: 1 }),
    buffer_before: Count,
    buffer_after: Count,
    price_pence: Count,
    email: NullableString,
    phone: NullableString,
    name: NullableString,
    client_token: Type.String(),
  },
  strict,
);
export type ImportedAppointment = Static<typeof ImportedAppointment>;

/** What became of one row: created (with its id), unchanged (imported before), or refused (code, field, message). */
export const ImportOutcome = Type.Object({
  row: Type.Integer(),
  outcome: Type.String({ enum: ['created', 'unchanged', 'error'] }),
  id: Type.Optional(Uuid),
  code: Type.Optional(Type.String()),
  field: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
});
export type ImportOutcome = Static<typeof ImportOutcome>;

/**
 * An import's batch (import-appointments.sql). Not a one-statement write: it runs inside the import's
 * own transaction, with no claim and a bare answer (the outcomes), so booking-authority.ts checks
 * both sides with checkRequest/checkResult around its own statement.
 */
export const importAppointmentsBatch = writeFunction(
  'bbo_import_appointments',
  Type.Object({ store_id: Uuid, rows: Type.Array(ImportedAppointment) }, strict),
  Type.Array(ImportOutcome),
);
