// check-in, complete, no-show and cancel: the spec's "Appointment status" table. Each locks the
// appointment row first (FOR UPDATE), so of two colleagues pressing the same button one changes
// the state and the other sees the result as a noop repeat; every change is audited in the same
// transaction. pending_payment belongs to the online payment path: the merchant may cancel or
// move it, nothing else (see docs/decisions.md).
import type { MerchantContext, RequestContext } from '../../platform/context.ts';
import { oneStatementWrite } from '../../platform/one-statement.ts';
import { audit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Tx } from '../../platform/db/port.ts';
import type { AppointmentRow } from '../booking-authority.ts';
import * as repo from './appointments.repository.ts';
import { presentAppointment } from './appointments.service.ts';
import { emit } from '../../events/outbox.ts';
import type { CancelBody, CancelResponse, StatusBody, StatusResponse } from './appointments.schemas.ts';

// The merchant's changes are one statement each, bbo_appointment_status
// (migrations/103_appointment_status.sql): the Idempotency-Key claim, the row lock (FOR UPDATE), the
// status table's checks in the order below, the update, the audit row, the event (the appointment
// after the change, with its previous status) and the idempotency record, in one round trip.
type Op = 'check_in' | 'complete' | 'no_show' | 'cancel';

function change<T>(ctx: MerchantContext, op: Op, appointmentId: string, reason: string | null = null): Promise<T> {
  return oneStatementWrite<T>(ctx, 'bbo_appointment_status', { store_id: ctx.actor.storeId, appointment_id: appointmentId, op, reason });
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
  return change(ctx, 'cancel', body.appointment_id, body.reason?.trim() || null);
}

// The customer's own cancel (src/bookings/my-appointments) runs inside a transaction of its own, with
// the same rules as the 'cancel' branch of bbo_appointment_status (keep the two in step), and the same
// audit row and event (appointment.cancelled, with cancelled_by: 'customer').

/** Statuses that still occupy the unit and can be cancelled. */
const ACTIVE = new Set(['pending_payment', 'confirmed', 'checked_in']);

function refused(a: AppointmentRow, what: string): AppError {
  return new AppError('INVALID_TRANSITION', `A ${a.status} appointment cannot be ${what}`);
}

/**
 * The audit row and the event of one status change, as bbo_appointment_status writes them: the event's
 * data is the appointment after the change with its previous status, and who cancelled.
 */
async function auditStatus(tx: Tx, ctx: RequestContext, a: AppointmentRow, to: 'cancelled', details: Record<string, unknown> = {}) {
  await audit(tx, ctx, { action: `appointment.${to}`, entity: 'appointment', entityId: a.id, details: { from: a.status, to, ...details } });
  const data = { ...presentAppointment({ ...a, status: to }), previous: { status: a.status }, cancelled_by: ctx.actor.kind === 'customer' ? 'customer' : 'merchant' };
  await emit(tx, { storeId: a.store_id, type: `appointment.${to}`, data }, ctx.clock.now());
}

/**
 * Cancels a locked appointment: the customer's own cancel of their booking (src/bookings/my-appointments).
 */
export async function cancelLocked(tx: Tx, ctx: RequestContext, a: AppointmentRow, reason: string | null): Promise<CancelResponse> {
  // Repeats change nothing: the first cancellation's instant and reason stand.
  if (a.status === 'cancelled') return { appointment_id: a.id, cancelled: true, noop: true };
  if (a.status === 'completed') return { appointment_id: a.id, cancelled: false, noop: true };
  if (!ACTIVE.has(a.status)) throw refused(a, 'cancelled');
  // Kept, not deleted: the status change releases the block and the audit trail survives.
  await repo.markCancelled(tx, a.store_id, a.id, reason, ctx.clock.now());
  // The reason stays on the row; the audit notes only that one was given (it may be a private note).
  await auditStatus(tx, ctx, a, 'cancelled', {
    reason_given: reason !== null,
    // A customer's audit row names the store in its details (a merchant's row has it from the token).
    ...(ctx.actor.kind === 'merchant' ? {} : { store_id: a.store_id }),
  });
  return { appointment_id: a.id, cancelled: true, noop: false };
}
