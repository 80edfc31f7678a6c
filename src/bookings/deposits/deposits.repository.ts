// SQL of the deposit sweep (marking one paid is bbo_deposit_paid, db/functions/deposit-paid.sql). Status changes
// only: the occupied block follows the status (unit_occupancy).
import type { Tx } from '../../platform/db/port.ts';
import { APPOINTMENT_COLUMNS, type AppointmentRow } from '../booking-authority.ts';

/**
 * One conditional UPDATE: a booking paid meanwhile no longer matches (payment_status), so the
 * sweep and a payment never both win; SKIP LOCKED leaves a row someone is changing to the next run.
 * The bookings waiting come from pending_deposits (kept by db/functions/pending-deposits.sql), not
 * from an index of appointments: one that read status would keep every status change from being a
 * HOT update (migration 170). Oldest first, at most 500 a run.
 */
export async function cancelOverdue(tx: Tx, now: Date): Promise<AppointmentRow[]> {
  const res = await tx.query<AppointmentRow>(
    `UPDATE appointments SET status = 'cancelled', cancelled_at = $1, cancel_reason = 'deposit_not_paid', cancelled_by = 'deposit_sweep', updated_at = $1
      WHERE id IN (
        SELECT a.id FROM pending_deposits p
          JOIN stores s ON s.id = p.store_id
          JOIN appointments a ON a.store_id = p.store_id AND a.id = p.appointment_id
         WHERE a.status = 'pending_payment' AND a.payment_status = 'none'
           AND a.created_at + make_interval(mins => s.deposit_due_minutes) <= $1
         ORDER BY a.created_at LIMIT 500
           FOR UPDATE OF a SKIP LOCKED)
      RETURNING ${APPOINTMENT_COLUMNS}`,
    [now.toISOString()],
  );
  return res.rows;
}
