// Deposits of online bookings. No money moves here: an operator or the shop records that the
// deposit was paid (pending_payment -> confirmed, payment_status deposit_paid), and a sweep cancels
// the bookings whose deposit did not arrive within the store's deposit_due_minutes, freeing the slot.
import { inTransaction, type RequestContext } from '../../platform/context.ts';
import { audit } from '../../platform/audit.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import type { Database } from '../../platform/db/port.ts';
import { emit } from '../../events/outbox.ts';
import { lockAppointment } from '../appointments/appointments.repository.ts';
import { presentAppointment } from '../appointments/appointments.service.ts';
import * as repo from './deposits.repository.ts';

export interface DepositPaidResponse {
  appointment_id: string;
  status: string;
  payment_status: string;
  noop: boolean;
}

export async function markDepositPaid(ctx: RequestContext, storeId: string, appointmentId: string): Promise<DepositPaidResponse> {
  return inTransaction(ctx, async (tx) => {
    const now = ctx.clock.now();
    const a = await lockAppointment(tx, storeId, appointmentId);
    if (!a) throw notFound('Appointment');
    if (a.payment_status === 'deposit_paid') return { appointment_id: a.id, status: a.status, payment_status: a.payment_status, noop: true };
    if (a.status !== 'pending_payment') {
      throw new AppError('NOT_PENDING_PAYMENT', `A ${a.status} appointment has no deposit waiting to be paid`);
    }
    const paid = await repo.markPaid(tx, storeId, a.id, now);
    await audit(tx, ctx, { action: 'appointment.deposit_paid', entity: 'appointment', entityId: a.id, details: { store_id: storeId, deposit_pence: a.deposit_pence } });
    await emit(tx, { storeId, type: 'appointment.deposit_paid', data: presentAppointment(paid) }, now);
    return { appointment_id: a.id, status: paid.status, payment_status: paid.payment_status, noop: false };
  });
}

/**
 * Cancels every pending_payment booking whose deposit is overdue (created more than the store's
 * deposit_due_minutes before now), in one transaction, emitting appointment.cancelled for each.
 * The status change releases the slot (unit_occupancy follows the status). Returns how many.
 */
export async function cancelOverdueDeposits(db: Database, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const cancelled = await repo.cancelOverdue(tx, now);
    for (const a of cancelled) {
      await emit(tx, { storeId: a.store_id, type: 'appointment.cancelled', data: { ...presentAppointment(a), cancelled_by: 'deposit_sweep' } }, now);
    }
    return cancelled.length;
  });
}

/** Runs the sweep every intervalMs on the clock given; stop() ends it. Started from src/server.ts. */
export function startDepositSweep(db: Database, clock: { now(): Date }, intervalMs: number, onError: (err: Error) => void): { stop(): void } {
  const timer = setInterval(() => {
    cancelOverdueDeposits(db, clock.now()).catch(onError);
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
