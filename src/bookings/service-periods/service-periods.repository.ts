// SQL for service periods. Every statement filters on store_id: a period of another store is
// invisible here.
import type { Queryable } from '../../platform/db/port.ts';
import type { ServicePeriod } from './service-periods.schemas.ts';
import type { Week } from './week.ts';

const COLUMNS = 'id, store_id, name, sort, week, last_seating_offset_min, is_active';

export async function listPeriods(db: Queryable, storeId: string, includeInactive: boolean): Promise<ServicePeriod[]> {
  const res = await db.query<ServicePeriod>(
    `SELECT ${COLUMNS} FROM service_periods
      WHERE store_id = $1 AND ($2 OR is_active)
      ORDER BY sort, name, id`,
    [storeId, includeInactive],
  );
  return res.rows;
}

export async function findPeriod(db: Queryable, storeId: string, id: string): Promise<ServicePeriod | null> {
  const res = await db.query<ServicePeriod>(`SELECT ${COLUMNS} FROM service_periods WHERE store_id = $1 AND id = $2`, [
    storeId,
    id,
  ]);
  return res.rows[0] ?? null;
}

/** The period, its row locked for the rest of the transaction. */
export async function lockPeriod(db: Queryable, storeId: string, id: string): Promise<ServicePeriod | null> {
  const res = await db.query<ServicePeriod>(
    `SELECT ${COLUMNS} FROM service_periods WHERE store_id = $1 AND id = $2 FOR UPDATE`,
    [storeId, id],
  );
  return res.rows[0] ?? null;
}

export async function findPeriodByToken(
  db: Queryable,
  storeId: string,
  clientToken: string,
): Promise<ServicePeriod | null> {
  const res = await db.query<ServicePeriod>(
    `SELECT ${COLUMNS} FROM service_periods WHERE store_id = $1 AND client_token = $2`,
    [storeId, clientToken],
  );
  return res.rows[0] ?? null;
}

/** The store's own last-seating offset (nullable on the store); undefined when there is no such store. */
export async function storeLastSeatingOffset(db: Queryable, storeId: string): Promise<number | null | undefined> {
  const res = await db.query<{ last_seating_offset_min: number | null }>(
    'SELECT last_seating_offset_min FROM stores WHERE id = $1',
    [storeId],
  );
  return res.rows[0]?.last_seating_offset_min;
}

export interface NewPeriod {
  storeId: string;
  clientToken: string | null;
  name: string;
  sort: number;
  week: Week;
  lastSeatingOffsetMin: number;
  now: string;
}

/**
 * Inserts the period, or returns null when a period with the same client_token already exists.
 * The partial unique index service_periods_client_token decides: two concurrent creates with one
 * token cannot both insert; the second waits for the first and then does nothing.
 */
export async function insertPeriod(db: Queryable, p: NewPeriod): Promise<ServicePeriod | null> {
  const res = await db.query<ServicePeriod>(
    `INSERT INTO service_periods (store_id, client_token, name, sort, week, last_seating_offset_min, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $7)
     ON CONFLICT (store_id, client_token) WHERE client_token IS NOT NULL DO NOTHING
     RETURNING ${COLUMNS}`,
    [p.storeId, p.clientToken, p.name, p.sort, JSON.stringify(p.week), p.lastSeatingOffsetMin, p.now],
  );
  return res.rows[0] ?? null;
}

export interface PeriodChanges {
  name?: string;
  sort?: number;
  week?: Week;
  last_seating_offset_min?: number;
  is_active?: boolean;
}

/** Applies only the fields present; returns the updated period, or null if the store has no such period. */
export async function updatePeriod(
  db: Queryable,
  storeId: string,
  id: string,
  changes: PeriodChanges,
  now: string,
): Promise<ServicePeriod | null> {
  // None of these columns is nullable, so an absent field (null here) keeps the stored value.
  const res = await db.query<ServicePeriod>(
    `UPDATE service_periods SET
        name = COALESCE($3, name),
        sort = COALESCE($4, sort),
        week = COALESCE($5::jsonb, week),
        last_seating_offset_min = COALESCE($6, last_seating_offset_min),
        is_active = COALESCE($7, is_active),
        updated_at = $8
      WHERE store_id = $1 AND id = $2
      RETURNING ${COLUMNS}`,
    [
      storeId,
      id,
      changes.name ?? null,
      changes.sort ?? null,
      changes.week === undefined ? null : JSON.stringify(changes.week),
      changes.last_seating_offset_min ?? null,
      changes.is_active ?? null,
      now,
    ],
  );
  return res.rows[0] ?? null;
}

export async function deletePeriod(db: Queryable, storeId: string, id: string): Promise<ServicePeriod | null> {
  const res = await db.query<ServicePeriod>(
    `DELETE FROM service_periods WHERE store_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [storeId, id],
  );
  return res.rows[0] ?? null;
}
