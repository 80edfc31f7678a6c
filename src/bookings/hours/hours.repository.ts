// SQL of working hours. A PUT replaces the unit's rows; times are kept as time of day (24:00 allowed as a close).
import type { Tx, Queryable } from '../../platform/db/port.ts';

export interface HoursRows {
  hours_set_at: string | null;
  week: Array<{ weekday: number; open: string; close: string }>;
  exceptions: Array<{ date: string; open: string | null; close: string | null }>;
}

const HHMM = (col: string) => `CASE WHEN ${col} = '24:00'::time THEN '24:00' ELSE to_char(${col}, 'HH24:MI') END`;

/** null when the unit is not the store's. */
export async function readHours(q: Queryable, storeId: string, unitId: string): Promise<HoursRows | null> {
  const res = await q.query<HoursRows>(
    `SELECT u.hours_set_at,
            COALESCE((SELECT json_agg(json_build_object('weekday', h.weekday, 'open', ${HHMM('h.opens')}, 'close', ${HHMM('h.closes')})
                               ORDER BY h.weekday, h.opens)
                        FROM unit_hours h WHERE h.store_id = u.store_id AND h.unit_id = u.id), '[]') AS week,
            COALESCE((SELECT json_agg(json_build_object('date', e.on_date::text, 'open', ${HHMM('e.opens')}, 'close', ${HHMM('e.closes')})
                               ORDER BY e.on_date, e.opens NULLS FIRST)
                        FROM unit_hours_exceptions e WHERE e.store_id = u.store_id AND e.unit_id = u.id), '[]') AS exceptions
       FROM units u WHERE u.store_id = $1 AND u.id = $2`,
    [storeId, unitId],
  );
  return res.rows[0] ?? null;
}

/** Replaces the unit's hours; the caller has locked the unit row. */
export async function replaceHours(
  tx: Tx,
  storeId: string,
  unitId: string,
  week: Array<{ weekday: number; open: string; close: string }>,
  exceptions: Array<{ date: string; open: string | null; close: string | null }>,
  now: Date,
): Promise<void> {
  await tx.query(
    `WITH gone_week AS (DELETE FROM unit_hours WHERE store_id = $1 AND unit_id = $2),
          gone_exceptions AS (DELETE FROM unit_hours_exceptions WHERE store_id = $1 AND unit_id = $2),
          new_week AS (
            INSERT INTO unit_hours (store_id, unit_id, weekday, opens, closes)
            SELECT $1, $2, w.weekday, w.opens::time, w.closes::time
              FROM unnest($3::smallint[], $4::text[], $5::text[]) AS w (weekday, opens, closes)),
          new_exceptions AS (
            INSERT INTO unit_hours_exceptions (store_id, unit_id, on_date, opens, closes)
            SELECT $1, $2, e.on_date, e.opens::time, e.closes::time
              FROM unnest($6::date[], $7::text[], $8::text[]) AS e (on_date, opens, closes))
     UPDATE units SET hours_set_at = $9, updated_at = $9 WHERE store_id = $1 AND id = $2`,
    [
      storeId,
      unitId,
      week.map((w) => w.weekday),
      week.map((w) => w.open),
      week.map((w) => w.close),
      exceptions.map((e) => e.date),
      exceptions.map((e) => e.open),
      exceptions.map((e) => e.close),
      now.toISOString(),
    ],
  );
}
