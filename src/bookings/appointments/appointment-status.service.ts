// check-in, complete, no-show and cancel: the spec's "Appointment status" table. Each locks the
// appointment row first (FOR UPDATE), so of two colleagues pressing the same button one changes
// the state and the other sees the result as a noop repeat; every change is audited in the same
// transaction. pending_payment belongs to the online payment path: the merchant may cancel or
// move it, nothing else (see docs/decisions.md).
import type { MerchantContext, RequestContext } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { audit } from '../../platform/audit.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import type { Tx } from '../../platform/db/port.ts';
import type { AppointmentRow } from '../booking-authority.ts';
import { emit } from '../../events/outbox.ts';
import type { EventType } from '../../events/event-types.ts';
import { presentAppointment } from './appointments.service.ts';
import * as repo from './appointments.repository.ts';
import type { CancelBody, CancelResponse, StatusBody, StatusResponse } from './appointments.schemas.ts';

/** Statuses that still occupy the unit and can be cancelled. */
const ACTIVE = new Set(['pending_payment', 'confirmed', 'checked_in']);

async function locked(tx: Tx, ctx: MerchantContext, appointmentId: string): Promise<AppointmentRow> {
  const appointment = await repo.lockAppointment(tx, ctx.actor.storeId, appointmentId);
  if (!appointment) throw notFound('Appointment');
  return appointment;
}

function refused(a: AppointmentRow, what: string): AppError {
  return new AppError('INVALID_TRANSITION', `A ${a.status} appointment cannot be ${what}`);
}

function changed(a: AppointmentRow, status: string): StatusResponse {
  return { appointment_id: a.id, status, noop: false };
}

function repeat(a: AppointmentRow): StatusResponse {
  return { appointment_id: a.id, status: a.status, noop: true };
}

/** The audit row and the event of one status change; the event's data is the appointment after it. */
async function auditStatus(tx: Tx, ctx: RequestContext, a: AppointmentRow, to: string, details: Record<string, unknown> = {}) {
  await audit(tx, ctx, { action: `appointment.${to}`, entity: 'appointment', entityId: a.id, details: { from: a.status, to, ...details } });
  const data = { ...presentAppointment({ ...a, status: to }), previous: { status: a.status } };
  await emit(tx, { storeId: a.store_id, type: `appointment.${to}` as EventType, data }, ctx.clock.now());
}

export async function checkIn(ctx: MerchantContext, body: StatusBody): Promise<StatusResponse> {
  return inTransaction(ctx, async (tx) => {
    const a = await locked(tx, ctx, body.appointment_id);
    if (a.status === 'checked_in') return repeat(a);
    if (a.status !== 'confirmed') throw refused(a, 'checked in');
    await repo.markCheckedIn(tx, a.store_id, a.id, ctx.clock.now());
    await auditStatus(tx, ctx, a, 'checked_in');
    return changed(a, 'checked_in');
  });
}

export async function complete(ctx: MerchantContext, body: StatusBody): Promise<StatusResponse> {
  return inTransaction(ctx, async (tx) => {
    const a = await locked(tx, ctx, body.appointment_id);
    if (a.status === 'completed') return repeat(a);
    if (a.status !== 'confirmed' && a.status !== 'checked_in') throw refused(a, 'completed');
    await repo.markCompleted(tx, a.store_id, a.id, ctx.clock.now());
    await auditStatus(tx, ctx, a, 'completed');
    return changed(a, 'completed');
  });
}

export async function noShow(ctx: MerchantContext, body: StatusBody): Promise<StatusResponse> {
  return inTransaction(ctx, async (tx) => {
    const a = await locked(tx, ctx, body.appointment_id);
    const now = ctx.clock.now();
    switch (a.status) {
      case 'no_show':
        return repeat(a);
      case 'checked_in':
        throw new AppError('ALREADY_CHECKED_IN', 'A checked-in guest showed up and cannot be a no-show');
      case 'confirmed':
        // Due once its start has passed: a guest is missing from the moment they are late.
        if (now.getTime() < Date.parse(a.starts_at)) {
          throw new AppError('NOT_YET_DUE', 'The appointment has not started yet, so it cannot be a no-show');
        }
        // The status change alone releases the block (the exclusion constraint ignores no-shows).
        await repo.markNoShow(tx, a.store_id, a.id, now);
        await auditStatus(tx, ctx, a, 'no_show');
        return changed(a, 'no_show');
      default:
        throw refused(a, 'marked a no-show');
    }
  });
}

export async function cancel(ctx: MerchantContext, body: CancelBody): Promise<CancelResponse> {
  return inTransaction(ctx, async (tx) => {
    const a = await locked(tx, ctx, body.appointment_id);
    return cancelLocked(tx, ctx, a, body.reason?.trim() || null);
  });
}

/**
 * Cancels a locked appointment: the merchant's cancel, and the customer's own cancel of their
 * booking (src/bookings/my-appointments), take this one path.
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
