// SQL for the diary: the whole answer in one statement, built by the database as JSON text, and the
// one-appointment read. An appointment's diary fields come from one SQL presenter,
// bbo_diary_appointment (db/functions/presenters.sql). Each item is aggregated as a typed row (json_agg of a
// row), which costs a third less than building each object with json_build_object.
import type { Queryable } from '../../platform/db/port.ts';
import { UNIT_COLUMNS } from '../units/unit.schemas.ts';
import type { AppointmentDetail } from './diary.schemas.ts';
import { BOOKED_BY_SQL, type BookedBy } from './booked-by.repository.ts';

/**
 * One appointment of the store with its diary fields (and the store, unit, source and guest's note),
 * and who booked it (booked-by.repository.ts), or null; one statement.
 */
export async function diaryAppointmentById(
  q: Queryable,
  storeId: string,
  appointmentId: string,
): Promise<{ appointment: AppointmentDetail; booked_by: BookedBy | null } | null> {
  const res = await q.query<AppointmentDetail & { booked_by: BookedBy | null }>(
    `SELECT d.*, a.store_id, a.unit_id, a.source, a.guest_note, ${BOOKED_BY_SQL} AS booked_by
       FROM appointments a
       LEFT JOIN areas ar ON ar.store_id = a.store_id AND ar.id = a.preferred_area_id
      CROSS JOIN LATERAL bbo_diary_appointment(a, ar.name) d
      WHERE a.store_id = $1 AND a.id = $2`,
    [storeId, appointmentId],
  );
  if (!res.rows[0]) return null;
  const { booked_by, ...appointment } = res.rows[0];
  return { appointment, booked_by };
}

export interface DiaryRead {
  storeId: string;
  fromDate: string;
  toDate: string;
  /** One unit, whatever its state; null for every active bookable unit. */
  unitId: string | null;
  includeCancelled: boolean;
  /** Holds that expired before now no longer show. */
  now: Date;
  /** Longest range answered, in calendar days; a longer one is measured but not built. */
  maxDays: number;
}

/** What the statement found: no row at all means no such store. */
export interface DiaryAnswer {
  /** Units in the answer (0 with a unit asked for: no such unit in this store). */
  units: number;
  /** The DiaryResponse as JSON text, in its field order; null when the range is too long. */
  body: string | null;
}

/**
 * The store's day range, its units (sort, then name) and, per unit, the appointments whose told
 * time overlaps [00:00 on fromDate, 00:00 after toDate) in the store's zone (cancelled ones only when
 * asked), the live holds and the time-off overlapping it. The zone arithmetic is PostgreSQL's
 * (timestamp AT TIME ZONE zone), so 23- and 25-hour days come out right.
 */
export async function readDiaryAnswer(q: Queryable, r: DiaryRead): Promise<DiaryAnswer | null> {
  const res = await q.query<DiaryAnswer>(
    `WITH range AS (
       SELECT s.id AS store_id, s.timezone,
              ($2::date::timestamp AT TIME ZONE s.timezone) AS from_at,
              (($3::date + 1)::timestamp AT TIME ZONE s.timezone) AS to_at,
              ($3::date - $2::date + 1) AS days
         FROM stores s WHERE s.id = $1
     ), columns AS (
       -- A range too long is refused: nothing is read or built for it.
       SELECT u.* FROM units u, range r
        WHERE u.store_id = $1 AND (CASE WHEN $4::uuid IS NULL THEN u.is_active AND u.bookable ELSE u.id = $4::uuid END)
          AND r.days <= $7
     ), unit_ids AS (
       SELECT ARRAY(SELECT id FROM columns) AS ids
     ), appointment_lists AS (
       -- The occupied block contains the told time, so this indexable overlap (gist on
       -- store_id, unit_id, block) narrows the rows without losing any; the next line decides.
       SELECT a.unit_id, json_agg(bbo_diary_appointment(a, ar.name) ORDER BY a.starts_at, a.ends_at, a.id) AS list
         FROM range r, unit_ids c, appointments a
         LEFT JOIN areas ar ON ar.store_id = a.store_id AND ar.id = a.preferred_area_id
        WHERE a.store_id = $1 AND a.unit_id = ANY(c.ids) AND a.block && tstzrange(r.from_at, r.to_at)
          AND a.starts_at < r.to_at AND a.ends_at > r.from_at AND ($5 OR a.status <> 'cancelled')
        GROUP BY a.unit_id
     ), hold_lists AS (
       -- Holds still occupying their unit at now: not released, and not expired.
       SELECT h.unit_id, json_agg((SELECT hold FROM (SELECT h.id, bbo_iso(h.starts_at) AS starts_at, bbo_iso(h.ends_at) AS ends_at,
                                                            bbo_iso(h.expires_at) AS expires_at) hold) ORDER BY h.starts_at, h.id) AS list
         FROM range r, unit_ids c, holds h
        WHERE h.store_id = $1 AND h.unit_id = ANY(c.ids) AND tstzrange(h.starts_at, h.ends_at) && tstzrange(r.from_at, r.to_at)
          AND h.released_at IS NULL AND (h.expires_at IS NULL OR h.expires_at > $6)
        GROUP BY h.unit_id
     ), time_off_lists AS (
       SELECT o.unit_id, json_agg((SELECT off FROM (SELECT o.id, bbo_iso(o.starts_at) AS starts_at, bbo_iso(o.ends_at) AS ends_at,
                                                           o.kind, o.reason) off) ORDER BY o.starts_at, o.id) AS list
         FROM range r, unit_ids c, time_off o
        WHERE o.store_id = $1 AND o.unit_id = ANY(c.ids) AND tstzrange(o.starts_at, o.ends_at) && tstzrange(r.from_at, r.to_at)
        GROUP BY o.unit_id
     )
     SELECT (SELECT count(*) FROM columns)::int AS units,
            CASE WHEN r.days <= $7 THEN
            json_build_object('store_id', r.store_id, 'timezone', r.timezone, 'from', bbo_iso(r.from_at), 'to', bbo_iso(r.to_at),
              'units', coalesce((
                SELECT json_agg(json_build_object(
                         -- The unit as the units list presents it (its columns; only u has them here).
                         'unit', (SELECT unit FROM (SELECT ${UNIT_COLUMNS}) unit),
                         'appointments', coalesce(al.list, '[]'), 'holds', coalesce(hl.list, '[]'), 'time_off', coalesce(tl.list, '[]'))
                       ORDER BY u.sort, u.display_name, u.id)
                  FROM columns u
                  LEFT JOIN appointment_lists al ON al.unit_id = u.id
                  LEFT JOIN hold_lists hl ON hl.unit_id = u.id
                  LEFT JOIN time_off_lists tl ON tl.unit_id = u.id), '[]'))::text END AS body
       FROM range r`,
    [r.storeId, r.fromDate, r.toDate, r.unitId, r.includeCancelled, r.now.toISOString(), r.maxDays],
  );
  return res.rows[0] ?? null;
}
