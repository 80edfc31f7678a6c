// availability_changes keeps one row per store and changing transaction (written by triggers,
// migrations/107_availability_changes.sql). A kept answer's generation lives at most ten minutes
// (availability.cache.ts), so a day of rows is far more than any check reads; older ones are pruned.
import type { Queryable } from '../../platform/db/port.ts';

export const CHANGES_KEPT_MS = 24 * 60 * 60 * 1000;

/** Deletes rows written more than CHANGES_KEPT_MS before now, in batches; answers how many. */
export async function pruneAvailabilityChanges(db: Queryable, now: Date, batchSize = 5000): Promise<number> {
  const cutoff = new Date(now.getTime() - CHANGES_KEPT_MS).toISOString();
  let total = 0;
  for (;;) {
    const res = await db.query<{ n: number }>(
      `WITH doomed AS (SELECT store_id, txid FROM availability_changes WHERE changed_at < $1 LIMIT $2),
            gone AS (DELETE FROM availability_changes c USING doomed d WHERE c.store_id = d.store_id AND c.txid = d.txid RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [cutoff, batchSize],
    );
    total += res.rows[0].n;
    if (res.rows[0].n < batchSize) return total;
  }
}
