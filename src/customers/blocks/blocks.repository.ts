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

const RECORD = 'customer_id, blocked, blocked_at, blocked_channels, block_reason, archived, archived_at';

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
): Promise<BlockRecord[] | null> {
  const res = await tx.query<BlockRecord>(
    `UPDATE store_customers SET
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
      WHERE store_id = $1 AND customer_id = ANY($2::uuid[])
        AND (SELECT count(*) FROM store_customers WHERE store_id = $1 AND customer_id = ANY($2::uuid[])) = cardinality($2::uuid[])
      RETURNING ${RECORD}`,
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
