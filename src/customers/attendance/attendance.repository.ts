import type { Queryable } from '../../platform/db/port.ts';
import type { ClassBooking } from './attendance.schemas.ts';

/**
 * One page of a customer's class bookings at a store, newest first: by the class's scheduled day
 * and start time, then when it was booked, then id so equal rows keep one order across pages
 * (index class_bookings_attendance). Asks for one row more than the page to learn has_more.
 */
export async function attendancePage(
  db: Queryable,
  storeId: string,
  customerId: string,
  limit: number,
  offset: number,
): Promise<ClassBooking[]> {
  const res = await db.query<ClassBooking>(
    `SELECT id, status, booking_date, booking_source, class_name, class_category,
            coalesce(nullif(occurrence_instructor_name, ''), nullif(class_instructor_name, '')) AS instructor_name,
            scheduled_date, start_time::text AS start_time, end_time::text AS end_time,
            attended_at, no_show_marked_at, cancelled_at, created_at
       FROM class_bookings
      WHERE store_id = $1 AND customer_id = $2
      ORDER BY scheduled_date DESC NULLS LAST, start_time DESC NULLS LAST, created_at DESC, id DESC
      LIMIT $3 OFFSET $4`,
    [storeId, customerId, limit + 1, offset],
  );
  return res.rows;
}
