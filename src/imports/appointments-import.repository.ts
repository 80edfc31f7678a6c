// The store's units and services, read once per appointment import to find rows' names and ids.
import type { Queryable, Tx } from '../platform/db/port.ts';

export interface Catalogue {
  units: Array<{ id: string; name: string; bookable: boolean }>;
  services: Array<{
    id: string;
    name: string;
    duration_min: number;
    price_pence: number;
    buffer_before_min: number;
    buffer_after_min: number;
  }>;
}

export async function storeCatalogue(db: Queryable, storeId: string): Promise<Catalogue> {
  const [units, services] = await Promise.all([
    db.query<Catalogue['units'][number]>(
      'SELECT id, display_name AS name, is_active AND bookable AS bookable FROM units WHERE store_id = $1',
      [storeId],
    ),
    db.query<Catalogue['services'][number]>(
      `SELECT id, name, duration_min, price_pence, coalesce(buffer_before_min, 0) AS buffer_before_min, coalesce(buffer_after_min, 0) AS buffer_after_min
         FROM services WHERE store_id = $1`,
      [storeId],
    ),
  ]);
  return { units: units.rows, services: services.rows };
}

/** Below this many rows (as the planner last counted them) the tables are re-counted after the import's first batch. */
export const SMALL_TABLE_ROWS = 50_000;

/**
 * A new shop's tables are empty when its import begins, and the plans the booking functions and the
 * foreign-key checks cache then are sequential scans (an empty table is one page). Inside the import's
 * one transaction every later row would scan every row before it: quadratic (issue 45 measured a
 * 200-row batch growing from 0.2 s to 0.6 s of database CPU by the tenth). ANALYZE counts the
 * transaction's own rows and invalidates those plans, so the next batch plans index scans again.
 * Only when the planner thinks the tables small: there it costs a few milliseconds, and on a large
 * table the plans are index scans already. It holds ANALYZE's lock (which only conflicts with
 * VACUUM, ANALYZE and index builds) until the import ends.
 */
export async function refreshStatisticsWhenSmall(tx: Tx): Promise<void> {
  const res = await tx.query<{ small: boolean }>(
    `SELECT coalesce(max(c.reltuples), 0) < $1 AS small FROM pg_class c WHERE c.oid IN ('appointments'::regclass, 'unit_occupancy'::regclass)`,
    [SMALL_TABLE_ROWS],
  );
  // SKIP_LOCKED: another import's ANALYZE holding the lock refreshes the same plans; never wait on it.
  if (res.rows[0].small) await tx.query('ANALYZE (SKIP_LOCKED) appointments, unit_occupancy');
}
