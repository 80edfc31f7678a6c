// SQL for the store-scoped block record (columns of store_customers).
import type { Queryable } from '../../platform/db/port.ts';
import type { BlockRecord, Channel } from './blocks.schemas.ts';

export interface BlockChange {
  blocked?: boolean;
  blockedChannels?: Channel[];
  /** undefined: untouched; null: cleared. */
  blockReason?: string | null;
  archived?: boolean;
}

const RECORD =
  'sc.customer_id, sc.blocked, sc.blocked_at, sc.blocked_channels, sc.block_reason, sc.archived, sc.archived_at';

/** A changed record with what it was before the change (for the events: blocked or not, archived or not). */
export interface BlockChangeRow extends BlockRecord {
  was_blocked: boolean;
  was_archived: boolean;
  was_channels: Channel[];
  reason_changed: boolean;
}

/**
 * Applies the change to every named customer of the store in one statement, or to none: the
 * guard compares how many of the ids are this store's customers with how many were named, so an
 * unknown id leaves every row untouched. Returns null when the guard refused.
 *
 * blocked true keeps the original blocked_at on a repeat; blocked false lifts the block and clears
 * its note and the one-notice stamp (unless the same request sets a new note). archived_at is kept
 * on a repeated archive, like blocked_at.
 */
export async function applyBlockChange(
  tx: Queryable,
  storeId: string,
  customerIds: string[],
  change: BlockChange,
  now: string,
): Promise<BlockChangeRow[] | null> {
  // prior locks the rows first, so the previous values are the ones this change replaces.
  const res = await tx.query<BlockChangeRow>(
    `WITH prior AS (
       SELECT customer_id AS old_id, blocked AS was_blocked, archived AS was_archived,
              blocked_channels AS was_channels, block_reason AS was_reason
         FROM store_customers WHERE store_id = $1 AND customer_id = ANY($2::uuid[])
          FOR UPDATE
     )
     UPDATE store_customers sc SET
        blocked              = COALESCE($3::boolean, blocked),
        blocked_at           = CASE WHEN $3::boolean IS TRUE THEN COALESCE(blocked_at, $8::timestamptz)
                                    WHEN $3::boolean IS FALSE THEN NULL ELSE blocked_at END,
        block_notice_sent_at = CASE WHEN $3::boolean IS FALSE THEN NULL ELSE block_notice_sent_at END,
        block_reason         = CASE WHEN $5::boolean THEN $6::text
                                    WHEN $3::boolean IS FALSE THEN NULL ELSE block_reason END,
        blocked_channels     = COALESCE($4::text[], blocked_channels),
        archived             = COALESCE($7::boolean, archived),
        archived_at          = CASE WHEN $7::boolean IS TRUE THEN COALESCE(archived_at, $8::timestamptz)
                                    WHEN $7::boolean IS FALSE THEN NULL ELSE archived_at END,
        updated_at           = $8::timestamptz
       FROM prior
      WHERE sc.store_id = $1 AND sc.customer_id = prior.old_id
        AND (SELECT count(*) FROM prior) = cardinality($2::uuid[])
      RETURNING ${RECORD}, prior.was_blocked, prior.was_archived, prior.was_channels,
                prior.was_reason IS DISTINCT FROM sc.block_reason AS reason_changed`,
    [
      storeId,
      customerIds,
      change.blocked ?? null,
      change.blockedChannels ?? null,
      change.blockReason !== undefined,
      change.blockReason ?? null,
      change.archived ?? null,
      now,
    ],
  );
  return res.rows.length > 0 ? res.rows : null;
}

/** How many of the ids are this store's customers (to report the unknown ones after a refusal). */
export async function countKnown(q: Queryable, storeId: string, customerIds: string[]): Promise<number> {
  const res = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM store_customers WHERE store_id = $1 AND customer_id = ANY($2::uuid[])',
    [storeId, customerIds],
  );
  return res.rows[0].n;
}
