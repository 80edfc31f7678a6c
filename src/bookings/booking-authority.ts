// The one booking authority. Every write that occupies a unit's time (create, reschedule, seating
// a walk-in, holds and their confirmation) goes through here; nothing else inserts appointments or
// moves their block.
//
// What guarantees no double booking is one exclusion constraint, unit_occupancy_no_overlap
// (migration 080), not a prior SELECT. unit_occupancy holds a row for every live appointment (not
// cancelled, not a no-show, not an override) and every unreleased hold, kept by the triggers of
// db/functions/occupancy.sql: two overlapping rows on one unit can never both commit, whatever the
// concurrency and however many processes share the database. (Appointments had a constraint of
// their own as well until migration 160; it refused nothing this one does not.) On top of that, each
// write first locks the unit row (FOR UPDATE), which
//   - serialises writers per unit, so time-off (another table, which the constraint cannot see) and
//     holds are checked without a race, each refusal with its own code, and
//   - keeps concurrent writers on one unit from deadlocking inside the constraint check.
//
// A hold's expiry depends on "now", which no constraint can read, so an expired hold keeps its row
// until a writer here needs the time: under the unit lock it releases the hold first
// (releaseExpiredHolds) and emits hold.expired.
import type { Tx } from '../platform/db/port.ts';
import type { RequestContext } from '../platform/context.ts';
import { PG, pgCode, pgConstraint } from '../platform/db/pg-errors.ts';
import { AppError, notFound } from '../platform/errors/app-error.ts';
import { checkRequest, checkResult, oneStatementWrite } from '../platform/one-statement.ts';

import { emit } from '../events/outbox.ts';
import { auditActor, eventActor } from '../platform/audit.ts';

import type { Static } from 'typebox';
import * as w from './booking-authority.writes.ts';
import type { CustomerHold, MerchantBooking, MerchantMove, PageHold, WalkInSeat } from './booking-authority.writes.ts';
import type { CreateResponse, RescheduleResponse } from './appointments/appointments.schemas.ts';
import type { ConfirmResponse, HoldResponse, ReleaseResponse } from './holds/holds.schemas.ts';
import type { AssignResult } from './queue/queue.schemas.ts';

import { HOLD_COLUMNS, holdEventData, type HoldRow } from './hold-row.ts';

export { APPOINTMENT_COLUMNS, type AppointmentRow } from './appointment-row.ts';

/** What a write answers when its retries of a deadlock run out. */
type Exhausted = { exhausted: () => AppError };

interface Block {
  start: string;
  end: string;
}

/** Locks unit rows in a fixed order (by id) so two movers never wait on each other in a cycle. */
export async function lockUnits(
  tx: Tx,
  storeId: string,
  unitIds: string[],
): Promise<Map<string, { is_active: boolean; bookable: boolean }>> {
  const ids = [...new Set(unitIds)].sort();
  const res = await tx.query<{ id: string; is_active: boolean; bookable: boolean }>(
    'SELECT id, is_active, bookable FROM units WHERE store_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE',
    [storeId, ids],
  );
  if (res.rows.length !== ids.length) throw notFound('Unit');
  return new Map(res.rows.map((r) => [r.id, r]));
}

/**
 * The constraint's refusal as SLOT_TAKEN. The merchant's writes have refused holds and time-off
 * under the unit lock before they write, so what the constraint still refuses there is a live
 * appointment; a customer's hold can meet either.
 */
function conflictAs(message: string): (err: unknown) => never {
  return (err) => {
    if (pgCode(err) === PG.exclusionViolation && pgConstraint(err) === 'unit_occupancy_no_overlap') {
      throw new AppError('SLOT_TAKEN', message);
    }
    throw err;
  };
}
const asBooked: (err: unknown) => never = conflictAs('The unit is already booked for part of that time');
const asConflict: (err: unknown) => never = conflictAs('The unit is already booked or held for part of that time');

/**
 * The merchant's create in one statement (one round trip): the idempotency claim, the store,
 * service and customer checks, the unit lock, the client-token reuse, holds and time-off, the insert
 * (the exclusion constraint decides), the relationship touch, the audit row, the event and the
 * idempotency record, in that order, inside bbo_merchant_book. Returns the response body.
 */
export async function bookForMerchant(
  ctx: RequestContext,
  booking: MerchantBooking,
  options: Exhausted,
): Promise<CreateResponse> {
  return oneStatementWrite(ctx, w.merchantBook, booking, { ...options, mapError: asBooked });
}

/**
 * Seats a walk-in in one statement: the entry lock, its status, the unit lock, holds and time-off,
 * the insert (checked in now; the exclusion constraint decides), the entry marked assigned, the audit
 * row and the events, inside bbo_queue_seat. A taken unit leaves as SLOT_TAKEN or UNIT_UNAVAILABLE.
 */
export async function seatWalkIn(ctx: RequestContext, seat: WalkInSeat, options: Exhausted): Promise<AssignResult> {
  return oneStatementWrite(ctx, w.queueSeat, seat, { ...options, mapError: asBooked });
}

/**
 * The merchant's reschedule in one statement: the idempotency claim, the appointment's row lock,
 * the target unit, the status and cancellation-window checks, the block, both units locked by id,
 * holds and time-off, one UPDATE of the block (the exclusion constraint decides), the audit row,
 * the event and the idempotency record. Returns the response body.
 */
export async function moveForMerchant(
  ctx: RequestContext,
  m: MerchantMove,
  options: Exhausted,
): Promise<RescheduleResponse> {
  return oneStatementWrite(ctx, w.merchantReschedule, m, { ...options, mapError: asBooked });
}

/**
 * Releases the unit's expired holds whose block meets `block`: they block nobody any more, but
 * their occupancy row would refuse the insert. Each is reported as hold.expired, when noticed.
 * The caller holds the unit lock, so no one else is deciding about this time meanwhile.
 */
async function releaseExpiredHolds(tx: Tx, storeId: string, unitId: string, block: Block, now: Date): Promise<void> {
  const res = await tx.query<HoldRow>(
    `UPDATE holds SET released_at = $5, release_reason = 'expired'
      WHERE store_id = $1 AND unit_id = $2 AND released_at IS NULL AND expires_at <= $5
        AND block && tstzrange($3::timestamptz, $4::timestamptz)
      RETURNING ${HOLD_COLUMNS}`,
    [storeId, unitId, block.start, block.end, now.toISOString()],
  );
  for (const hold of res.rows) await emit(tx, { storeId, type: 'hold.expired', data: holdEventData(hold) }, now);
}

/**
 * The customer's hold in one statement: the idempotency claim, the terms and the customer's
 * standing, every unit that could take the start locked by id, the availability function asked
 * whether the start is offered and on which units (without a unit asked for, the first free one in
 * diary order), expired holds in the way released, the insert (the occupancy constraint has the last
 * word), the audit row, the events and the idempotency record. Returns the response body.
 */
export async function holdForCustomer(
  ctx: RequestContext,
  hold: CustomerHold,
  options: Exhausted,
): Promise<HoldResponse> {
  return oneStatementWrite(ctx, w.customerHold, hold, { ...options, mapError: asConflict });
}

/**
 * The customer's confirm in one statement: the customer's own hold locked after its unit (a confirm
 * retried after a lost answer returns the first appointment), lapse and release refused, the price
 * and deposit snapshotted, the hold ended and the start asked of the availability function again
 * (notice and horizon from when the hold was placed), then booked as a merchant's create is booked,
 * with the hold as its client token; the relationship touch, audit, events and idempotency record.
 */
export async function confirmForCustomer(
  ctx: RequestContext,
  confirm: Static<typeof w.CustomerConfirm>,
  options: Exhausted,
): Promise<ConfirmResponse> {
  return oneStatementWrite(ctx, w.customerConfirm, confirm, { ...options, mapError: asConflict });
}

/** The customer letting a hold go, in one statement; ending one already ended is a noop. */
export async function releaseForCustomer(
  ctx: RequestContext,
  release: Static<typeof w.CustomerRelease>,
): Promise<ReleaseResponse> {
  return oneStatementWrite(ctx, w.customerRelease, release);
}

/** Places an operator's hold on an explicit range (no service): the constraint decides. */
export async function placeRawHold(
  tx: Tx,
  storeId: string,
  h: { unitId: string; startsAt: string; endsAt: string; expiresAt: string | null },
  now: Date,
): Promise<HoldRow> {
  const block = { start: h.startsAt, end: h.endsAt };
  await lockUnits(tx, storeId, [h.unitId]);
  await releaseExpiredHolds(tx, storeId, h.unitId, block, now);
  try {
    const res = await tx.query<HoldRow>(
      `INSERT INTO holds (store_id, unit_id, starts_at, ends_at, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING ${HOLD_COLUMNS}`,
      [storeId, h.unitId, h.startsAt, h.endsAt, h.expiresAt, now.toISOString()],
    );
    return res.rows[0];
  } catch (err) {
    asConflict(err);
  }
}

/**
 * The booking page's hold in one statement: the session's previous live hold released (one live hold
 * per browser), the address's live holds counted under a lock on that address (at most address_cap),
 * then the customer hold's own path with no customer yet (offered-start check, first free unit, the
 * occupancy constraint has the last word).
 */
export async function holdForPage<T = HoldResponse>(
  ctx: RequestContext,
  hold: PageHold,
  options: Exhausted,
): Promise<T> {
  return oneStatementWrite(ctx, w.pageHold, hold, { ...options, mapError: asConflict }) as Promise<T>;
}

/** The page session letting its hold go (idempotent). */
export async function releaseForPage<T = ReleaseResponse>(
  ctx: RequestContext,
  release: Static<typeof w.PageRelease>,
): Promise<T> {
  return oneStatementWrite(ctx, w.pageRelease, release) as Promise<T>;
}

/**
 * The page's confirm in one statement: the hold of this session (and store) given to the signed-in
 * customer, their standing checked, then the customer confirm's own path (a retry returns the first
 * appointment). A refusal anywhere leaves the hold as it was.
 */
export async function confirmForPage<T = ConfirmResponse>(
  ctx: RequestContext,
  confirm: Static<typeof w.PageConfirm>,
  options: Exhausted,
): Promise<T> {
  return oneStatementWrite(ctx, w.pageConfirm, confirm, { ...options, mapError: asConflict }) as Promise<T>;
}

/**
 * A reschedule from the manage link in one statement: the new time's page hold confirmed into a new
 * appointment for the same customer, then the old one cancelled by the customer cancel's own rules.
 * If the new time cannot be booked, or the old cannot be cancelled, nothing changes: the old is kept.
 */
export async function rescheduleForPage<T = Static<typeof w.pageReschedule.result>>(
  ctx: RequestContext,
  move: Static<typeof w.PageReschedule>,
  options: Exhausted,
): Promise<T> {
  return oneStatementWrite(ctx, w.pageReschedule, move, { ...options, mapError: asConflict }) as Promise<T>;
}

export type { ImportedAppointment, ImportOutcome } from './booking-authority.writes.ts';

/**
 * An import's batch in one statement, inside the import's own transaction (tx): the batch's units
 * locked by id, each row in a subtransaction so the exclusion constraint (and time-off, under the
 * lock) refuses that row alone and the rest go on; rows imported before (their client token) are
 * unchanged. Audit rows and appointment.created events (source import) are written with them.
 */
export async function importAppointments(
  ctx: RequestContext,
  tx: Tx,
  storeId: string,
  rows: w.ImportedAppointment[],
): Promise<w.ImportOutcome[]> {
  const req = { store_id: storeId, rows };
  checkRequest(w.importAppointmentsBatch, req);
  const actor = { ...auditActor(ctx), event_actor: eventActor(ctx.actor) };
  const res = await tx.query<{ result: unknown }>(
    'SELECT bbo_import_appointments($1::jsonb, $2::timestamptz, $3::jsonb) AS result',
    [JSON.stringify(actor), ctx.clock.now().toISOString(), JSON.stringify(req)],
  );
  return checkResult(w.importAppointmentsBatch, res.rows[0].result);
}
