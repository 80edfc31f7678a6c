// SQL of the customer's own bookings. Every statement filters on the customer: someone else's
// appointment reads exactly like a missing one.
import type { Queryable } from '../../platform/db/port.ts';
import { APPOINTMENT_COLUMNS, type AppointmentRow } from '../booking-authority.ts';

const LIMIT = 200;

export async function listMine(
  q: Queryable,
  customerId: string,
  storeId: string | null,
  upcomingAfter: string | null,
): Promise<AppointmentRow[]> {
  const res = await q.query<AppointmentRow>(
    `SELECT ${APPOINTMENT_COLUMNS} FROM appointments
      WHERE customer_id = $1 AND ($2::uuid IS NULL OR store_id = $2::uuid)
        AND ($3::timestamptz IS NULL OR (ends_at > $3::timestamptz AND status IN ('pending_payment', 'confirmed', 'checked_in')))
      ORDER BY CASE WHEN $3::timestamptz IS NULL THEN NULL ELSE starts_at END ASC, starts_at DESC, id
      LIMIT ${LIMIT}`,
    [customerId, storeId, upcomingAfter],
  );
  return res.rows;
}
