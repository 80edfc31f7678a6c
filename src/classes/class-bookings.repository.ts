// SQL reads of class bookings (the writes are plpgsql: db/functions/class-book.sql, class-booking-status.sql).
import type { Queryable } from '../platform/db/port.ts';
import type { ClassBookingRecord } from './class-bookings.schemas.ts';

/** One booking made through the timetable (rows the activity endpoint reported have no occurrence). */
export async function findBooking(q: Queryable, storeId: string, id: string): Promise<ClassBookingRecord | null> {
  const res = await q.query<{ b: ClassBookingRecord }>(
    `SELECT bbo_class_booking_json(b.*, o.*) AS b FROM class_bookings b JOIN class_occurrences o ON o.id = b.occurrence_id
      WHERE b.store_id = $1 AND b.id = $2`,
    [storeId, id],
  );
  return res.rows[0]?.b ?? null;
}
