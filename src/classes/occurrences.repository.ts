// SQL reads of class occurrences: the timetable (store-local days), one occurrence, its roster.
// Each occurrence is presented by bbo_class_occurrence_json (db/functions/classes.sql) with its counts.
import type { Queryable } from '../platform/db/port.ts';
import type { ClassBookingRecord } from './class-bookings.schemas.ts';
import type { Occurrence } from './occurrences.schemas.ts';

/** Occurrences starting on the store-local days from..to (inclusive), in start order. */
export async function timetable(
  q: Queryable,
  storeId: string,
  range: { from: string; to: string; classId: string | null; includeCancelled: boolean },
): Promise<Occurrence[]> {
  const res = await q.query<{ o: Occurrence }>(
    `SELECT bbo_class_occurrence_json(o.*, c.*) AS o
       FROM stores s
       JOIN class_occurrences o ON o.store_id = s.id
       JOIN classes c ON c.id = o.class_id
      WHERE s.id = $1
        AND o.starts_at >= ($2::date)::timestamp AT TIME ZONE s.timezone
        AND o.starts_at < ($3::date + 1)::timestamp AT TIME ZONE s.timezone
        AND ($4::uuid IS NULL OR o.class_id = $4)
        AND ($5 OR o.cancelled_at IS NULL)
      ORDER BY o.starts_at, c.name, o.id`,
    [storeId, range.from, range.to, range.classId, range.includeCancelled],
  );
  return res.rows.map((r) => r.o);
}

export async function findOccurrence(q: Queryable, storeId: string, id: string): Promise<Occurrence | null> {
  const res = await q.query<{ o: Occurrence }>(
    `SELECT bbo_class_occurrence_json(o.*, c.*) AS o FROM class_occurrences o JOIN classes c ON c.id = o.class_id
      WHERE o.store_id = $1 AND o.id = $2`,
    [storeId, id],
  );
  return res.rows[0]?.o ?? null;
}

/** Every booking of the occurrence: seats first (by when booked), the waitlist in order, then the rest. */
export async function roster(q: Queryable, storeId: string, occurrenceId: string): Promise<ClassBookingRecord[]> {
  const res = await q.query<{ b: ClassBookingRecord }>(
    `SELECT bbo_class_booking_json(b.*, o.*) AS b
       FROM class_bookings b JOIN class_occurrences o ON o.id = b.occurrence_id
      WHERE b.store_id = $1 AND b.occurrence_id = $2
      ORDER BY CASE WHEN b.status IN ('confirmed', 'attended', 'promotion_pending', 'no_show') THEN 0
                    WHEN b.status = 'waitlisted' THEN 1 ELSE 2 END,
               CASE WHEN b.status = 'waitlisted' THEN b.waitlist_position END, b.created_at, b.id`,
    [storeId, occurrenceId],
  );
  return res.rows.map((r) => r.b);
}
