// check-in, complete, no-show and cancel: the spec's "Appointment status" table. Each locks the
// appointment row first (FOR UPDATE), so of two colleagues pressing the same button one changes
// the state and the other sees the result as a noop repeat; every change is audited in the same
// transaction. pending_payment belongs to the online payment path: the merchant may cancel or
// move it, nothing else (see docs/decisions/appointments.md).
import type { MerchantContext } from '../../platform/context.ts';
import { oneStatementWrite } from '../../platform/one-statement.ts';
import type { CancelBody, CancelResponse, StatusBody, StatusResponse } from './appointments.schemas.ts';
import { cancelChange, statusChange } from './appointments.writes.ts';

// The merchant's changes are one statement each, bbo_appointment_status
// (db/functions/appointment-status.sql): the Idempotency-Key claim, the row lock (FOR UPDATE), the
// status table's checks in the order below, the update, the audit row, the event (the appointment
// after the change, with its previous status) and the idempotency record, in one round trip.
type Op = 'check_in' | 'complete' | 'no_show';

function change(ctx: MerchantContext, op: Op, appointmentId: string): Promise<StatusResponse> {
  return oneStatementWrite(ctx, statusChange, {
    store_id: ctx.actor.storeId,
    appointment_id: appointmentId,
    op,
    reason: null,
  });
}

/** checked_in repeats as a noop; only a confirmed appointment can be checked in. */
export function checkIn(ctx: MerchantContext, body: StatusBody): Promise<StatusResponse> {
  return change(ctx, 'check_in', body.appointment_id);
}

/** completed repeats as a noop; confirmed or checked_in can be completed. */
export function complete(ctx: MerchantContext, body: StatusBody): Promise<StatusResponse> {
  return change(ctx, 'complete', body.appointment_id);
}

/**
 * no_show repeats as a noop; checked_in is ALREADY_CHECKED_IN; confirmed only once its start has
 * passed (NOT_YET_DUE before); the status change alone releases the block.
 */
export function noShow(ctx: MerchantContext, body: StatusBody): Promise<StatusResponse> {
  return change(ctx, 'no_show', body.appointment_id);
}

/**
 * cancelled repeats as a noop (the first instant and reason stand); completed answers cancelled:
 * false as a noop; pending_payment, confirmed and checked_in can be cancelled. Kept, not deleted.
 */
export function cancel(ctx: MerchantContext, body: CancelBody): Promise<CancelResponse> {
  const reason = body.reason?.trim() || null;
  return oneStatementWrite(ctx, cancelChange, {
    store_id: ctx.actor.storeId,
    appointment_id: body.appointment_id,
    op: 'cancel',
    reason,
  });
}
