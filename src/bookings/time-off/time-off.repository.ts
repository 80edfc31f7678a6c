// SQL for time-off entries. Scoped to the store.
import type { Queryable } from '../../platform/db/port.ts';
import type { TimeOffRecord } from './time-off.schemas.ts';

const COLUMNS = 'id, unit_id, starts_at, ends_at, kind, reason';

export interface NewTimeOff {
  storeId: string;
  unitId: string;
  startsAt: string;
  endsAt: string;
  kind: string;
  reason: string | null;
  createdBy: string | null;
}

export async function insertTimeOff(q: Queryable, entry: NewTimeOff, now: Date): Promise<TimeOffRecord> {
  const res = await q.query<TimeOffRecord>(
    `INSERT INTO time_off (store_id, unit_id, starts_at, ends_at, kind, reason, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [
      entry.storeId,
      entry.unitId,
      entry.startsAt,
      entry.endsAt,
      entry.kind,
      entry.reason,
      entry.createdBy,
      now.toISOString(),
    ],
  );
  return res.rows[0];
}

/**
 * What occupies the unit in [start, end), counted in one statement: live appointments (their
 * occupied block) and live class occurrences it teaches (their occupancy rows, db/functions/class-occupancy.sql).
 */
export async function countOverlapping(
  q: Queryable,
  storeId: string,
  unitId: string,
  start: string,
  end: string,
): Promise<{ appointments: number; classes: number }> {
  const res = await q.query<{ appointments: number; classes: number }>(
    `SELECT (SELECT count(*)::int FROM appointments
              WHERE store_id = $1 AND unit_id = $2 AND bbo_live(status)
                AND block && tstzrange($3::timestamptz, $4::timestamptz)) AS appointments,
            (SELECT count(*)::int FROM unit_occupancy
              WHERE store_id = $1 AND unit_id = $2 AND occurrence_id IS NOT NULL
                AND block && tstzrange($3::timestamptz, $4::timestamptz)) AS classes`,
    [storeId, unitId, start, end],
  );
  return res.rows[0];
}

export async function findTimeOff(q: Queryable, storeId: string, id: string): Promise<TimeOffRecord | null> {
  const res = await q.query<TimeOffRecord>(`SELECT ${COLUMNS} FROM time_off WHERE store_id = $1 AND id = $2`, [
    storeId,
    id,
  ]);
  return res.rows[0] ?? null;
}

export async function deleteTimeOff(q: Queryable, storeId: string, id: string): Promise<boolean> {
  const res = await q.query('DELETE FROM time_off WHERE store_id = $1 AND id = $2', [storeId, id]);
  return res.rowCount > 0;
}
