// Deposits of online bookings. No money moves here: an operator or the shop records that the
// deposit was paid (pending_payment -> confirmed, payment_status deposit_paid), and a sweep cancels
// the bookings whose deposit did not arrive within the store's deposit_due_minutes, freeing the slot.
import { every } from '../../platform/background/every.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { Database } from '../../platform/db/port.ts';
import { oneStatementWrite } from '../../platform/one-statement.ts';
import { emit } from '../../events/outbox.ts';
import { presentAppointment } from '../appointments/appointments.service.ts';
import * as repo from './deposits.repository.ts';

import { type DepositPaidResponse, depositPaid } from './deposits.writes.ts';

export type { DepositPaidResponse };

/**
 * Records the deposit as paid: one call of bbo_deposit_paid (db/functions/deposit-paid.sql), which
 * locks the booking, answers a repeat as a noop, refuses anything not pending_payment, and writes the
 * change, the audit row and the appointment.deposit_paid event together.
 */
export async function markDepositPaid(
  ctx: RequestContext,
  storeId: string,
  appointmentId: string,
): Promise<DepositPaidResponse> {
  return oneStatementWrite(ctx, depositPaid, { store_id: storeId, appointment_id: appointmentId });
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
      await emit(
        tx,
        {
          storeId: a.store_id,
          type: 'appointment.cancelled',
          data: { ...presentAppointment(a), cancelled_by: 'deposit_sweep' },
        },
        now,
      );
    }
    return cancelled.length;
  });
}

/** Runs the sweep every intervalMs on the clock given (never two at once); stop() ends it. Started from src/server.ts. */
export function startDepositSweep(
  db: Database,
  clock: { now(): Date },
  intervalMs: number,
  onError: (err: Error) => void,
): { stop(): void } {
  return every(intervalMs, () => cancelOverdueDeposits(db, clock.now()), onError);
}
