// Retention: events are kept RETENTION_DAYS and then pruned in batches, oldest first. Each store's
// pruned position (the largest (txid, seq) removed) is recorded in events_pruned, so a cursor below
// it answers 410 CURSOR_EXPIRED rather than silently skipping what was pruned
// (migrations/070_events_retention.sql).
//
// pruneEvents is the job's one step, callable directly (tests pass a fixed instant); startPruning
// runs it periodically for server.ts with an injectable clock.
import { every, type PeriodicJob } from '../platform/background/every.ts';
import type { Database, Queryable } from '../platform/db/port.ts';
import type { Clock } from '../platform/clock.ts';
import { AppError } from '../platform/errors/app-error.ts';
import type { FeedPosition } from './feed-cursor.ts';

export const RETENTION_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface PruneOptions {
  /** Rows deleted per transaction (short transactions keep the feed's horizon moving). */
  batchSize?: number;
  /** Stop after this many batches; the next run continues. */
  maxBatches?: number;
}

/** The instant before which events are pruned at `now`. */
export function retentionCutoff(now: Date): Date {
  return new Date(now.getTime() - RETENTION_DAYS * DAY_MS);
}

/** Deletes events older than the retention, batch by batch; answers how many were deleted. */
export async function pruneEvents(db: Database, now: Date, options: PruneOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? 1000;
  const maxBatches = options.maxBatches ?? 100;
  const cutoff = retentionCutoff(now).toISOString();
  let total = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const deleted = await db.transaction(async (tx) => {
      // One statement: pick a batch (skipping rows another pruner holds), delete it, and move each
      // store's pruned position forward (never back) in the same transaction.
      const res = await tx.query<{ deleted: number }>(
        `WITH doomed AS (
           SELECT txid, seq FROM events WHERE occurred_at < $1 ORDER BY occurred_at LIMIT $2 FOR UPDATE SKIP LOCKED
         ), gone AS (
           DELETE FROM events e USING doomed d WHERE e.txid = d.txid AND e.seq = d.seq
           RETURNING e.store_id, e.txid, e.seq
         ), per_store AS (
           SELECT DISTINCT ON (store_id) store_id, txid, seq, count(*) OVER (PARTITION BY store_id) AS n
             FROM gone ORDER BY store_id, txid DESC, seq DESC
         ), recorded AS (
           INSERT INTO events_pruned AS p (store_id, through_txid, through_seq, pruned_count, occurred_before, updated_at)
           SELECT store_id, txid, seq, n, $1, $3 FROM per_store
           ON CONFLICT (store_id) DO UPDATE SET
             through_txid = CASE WHEN (EXCLUDED.through_txid, EXCLUDED.through_seq) > (p.through_txid, p.through_seq)
                                 THEN EXCLUDED.through_txid ELSE p.through_txid END,
             through_seq  = CASE WHEN (EXCLUDED.through_txid, EXCLUDED.through_seq) > (p.through_txid, p.through_seq)
                                 THEN EXCLUDED.through_seq ELSE p.through_seq END,
             pruned_count = p.pruned_count + EXCLUDED.pruned_count,
             occurred_before = GREATEST(p.occurred_before, EXCLUDED.occurred_before),
             updated_at = EXCLUDED.updated_at
         )
         SELECT count(*)::int AS deleted FROM gone`,
        [cutoff, batchSize, now.toISOString()],
      );
      return res.rows[0].deleted;
    });
    total += deleted;
    if (deleted < batchSize) break;
  }
  return total;
}

/** 410 CURSOR_EXPIRED when the store's pruned history reaches past the cursor. */
export async function assertRetained(q: Queryable, storeId: string, after: FeedPosition): Promise<void> {
  const res = await q.query(
    'SELECT 1 FROM events_pruned WHERE store_id = $1 AND (through_txid, through_seq) > ($2::xid8, $3::bigint)',
    [storeId, after.txid, after.seq],
  );
  if (res.rows.length > 0) {
    throw new AppError(
      'CURSOR_EXPIRED',
      `The cursor is older than the retained event history (${RETENTION_DAYS} days); read the feed again without after`,
    );
  }
}

export type PruningJob = PeriodicJob;

/** Runs pruneEvents now and every intervalMs; failures are logged and retried at the next tick. */
export function startPruning(
  db: Database,
  clock: Clock,
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void },
  intervalMs = 60 * 60 * 1000,
): PruningJob {
  return every(
    intervalMs,
    async () => {
      const pruned = await pruneEvents(db, clock.now());
      if (pruned > 0) log.info({ pruned }, 'events pruned');
    },
    (err) => log.warn({ err: { message: err.message } }, 'event pruning failed'),
    { runNow: true },
  );
}
