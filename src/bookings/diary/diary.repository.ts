// SQL for the diary: the whole answer in one statement, built by the database as JSON text, and the
// one-appointment read. An appointment's diary fields come from one SQL presenter,
// bbo_appointment_detail_json (migration 114).
import type { Queryable } from '../../platform/db/port.ts';
import type { AppointmentDetail } from './diary.schemas.ts';

/** One appointment of the store with its diary fields (and the store, unit and source), or null. */
export async function diaryAppointmentById(q: Queryable, storeId: string, appointmentId: string): Promise<AppointmentDetail | null> {
  const res = await q.query<{ appointment: AppointmentDetail }>(
    `SELECT bbo_appointment_detail_json(a, ar.name) AS appointment
       FROM appointments a
       LEFT JOIN areas ar ON ar.store_id = a.store_id AND ar.id = a.preferred_area_id
      WHERE a.store_id = $1 AND a.id = $2`,
    [storeId, appointmentId],
  );
  return res.rows[0]?.appointment ?? null;
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
  /** Calendar days in the range, counting both ends. */
  days: number;
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
    `SELECT d.days, coalesce(cols.n, 0)::int AS units,
            jsonb_build_object('store_id', s.id, 'timezone', s.timezone, 'from', bbo_iso(d.from_at), 'to', bbo_iso(d.to_at),
                               'units', cols.list)::text AS body
       FROM stores s
      CROSS JOIN LATERAL (
        SELECT ($2::date::timestamp AT TIME ZONE s.timezone) AS from_at,
               (($3::date + 1)::timestamp AT TIME ZONE s.timezone) AS to_at,
               ($3::date - $2::date + 1) AS days
      ) d
       LEFT JOIN LATERAL (
        SELECT count(*) AS n, coalesce(jsonb_agg(jsonb_build_object(
                 'unit', jsonb_build_object('id', u.id, 'display_name', u.display_name, 'kind', u.kind, 'unit_type', u.unit_type,
                                            'user_id', u.user_id, 'colour', u.colour, 'photo_url', u.photo_url, 'sort', u.sort,
                                            'bookable', u.bookable, 'online_bookable', u.online_bookable, 'is_active', u.is_active),
                 'appointments', coalesce((
                   -- The occupied block contains the told time, so this indexable overlap (gist on
                   -- store_id, unit_id, block) narrows the rows without losing any; the next line decides.
                   SELECT jsonb_agg(bbo_appointment_detail_json(a, ar.name) - '{store_id,unit_id,source}'::text[]
                                    ORDER BY a.starts_at, a.ends_at, a.id)
                     FROM appointments a
                     LEFT JOIN areas ar ON ar.store_id = a.store_id AND ar.id = a.preferred_area_id
                    WHERE a.store_id = s.id AND a.unit_id = u.id AND a.block && tstzrange(d.from_at, d.to_at)
                      AND a.starts_at < d.to_at AND a.ends_at > d.from_at
                      AND ($5 OR a.status <> 'cancelled')), '[]'),
                 'holds', coalesce((
                   SELECT jsonb_agg(jsonb_build_object('id', h.id, 'starts_at', bbo_iso(h.starts_at), 'ends_at', bbo_iso(h.ends_at),
                                                       'expires_at', bbo_iso(h.expires_at)) ORDER BY h.starts_at, h.id)
                     FROM holds h
                    WHERE h.store_id = s.id AND h.unit_id = u.id AND tstzrange(h.starts_at, h.ends_at) && tstzrange(d.from_at, d.to_at)
                      AND h.released_at IS NULL AND (h.expires_at IS NULL OR h.expires_at > $6)), '[]'),
                 'time_off', coalesce((
                   SELECT jsonb_agg(jsonb_build_object('id', o.id, 'starts_at', bbo_iso(o.starts_at), 'ends_at', bbo_iso(o.ends_at),
                                                       'kind', o.kind, 'reason', o.reason) ORDER BY o.starts_at, o.id)
                     FROM time_off o
                    WHERE o.store_id = s.id AND o.unit_id = u.id AND tstzrange(o.starts_at, o.ends_at) && tstzrange(d.from_at, d.to_at)), '[]'))
               ORDER BY u.sort, u.display_name, u.id), '[]') AS list
          FROM units u
         WHERE u.store_id = s.id AND (CASE WHEN $4::uuid IS NULL THEN u.is_active AND u.bookable ELSE u.id = $4::uuid END)
           -- A range too long is refused: nothing is built for it.
           AND d.days <= $7
      ) cols ON true
      WHERE s.id = $1`,
    [r.storeId, r.fromDate, r.toDate, r.unitId, r.includeCancelled, r.now.toISOString(), r.maxDays],
  );
  const row = res.rows[0];
  if (!row) return null;
  return { days: row.days, units: row.units, body: row.days <= r.maxDays ? row.body : null };
}
