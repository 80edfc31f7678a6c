// SQL for recording activity and keeping the store relationship and its roster aggregates true.
import type { Queryable } from '../../platform/db/port.ts';

export interface StoreRef {
  id: string;
  currency: string;
}

export async function findStore(db: Queryable, storeId: string): Promise<StoreRef | null> {
  const res = await db.query<StoreRef>('SELECT id, currency FROM stores WHERE id = $1', [storeId]);
  return res.rows[0] ?? null;
}

export async function findCustomer(
  db: Queryable,
  customerId: string,
): Promise<{ id: string; erased_at: string | null } | null> {
  const res = await db.query<{ id: string; erased_at: string | null }>(
    'SELECT id, erased_at FROM customers WHERE id = $1',
    [customerId],
  );
  return res.rows[0] ?? null;
}

/**
 * Creates the store relationship if it is new, and in any case takes its row lock: every writer of
 * one customer's activity at one store queues here, so the aggregate refresh that follows always
 * sees the rows the previous writer committed (READ COMMITTED takes a new snapshot per statement).
 */
export async function lockRelationship(
  tx: Queryable,
  storeId: string,
  customerId: string,
  at: string,
  now: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO store_customers (store_id, customer_id, first_seen_at, last_seen_at, updated_at)
     VALUES ($1, $2, $3, $3, $4)
     ON CONFLICT (store_id, customer_id) DO UPDATE SET updated_at = EXCLUDED.updated_at`,
    [storeId, customerId, at, now],
  );
}

export type ActivityTable = 'class_bookings' | 'stamps' | 'orders' | 'journey_events';

export interface UpsertInput {
  table: ActivityTable;
  id: string | null;
  storeId: string;
  customerId: string;
  /** Columns of the record other than id, store, customer and its instant. Names come from code. */
  values: Record<string, unknown>;
  instantColumn: 'created_at' | 'occurred_at';
  /** The record's instant as sent, or null: now for a new record, unchanged for an existing one. */
  instant: string | null;
  now: string;
}

/**
 * Inserts the record, or with a known id replaces its fields (a re-send or a status change).
 * Returns null when the id belongs to another store's or another customer's record.
 */
export async function upsertRecord(
  tx: Queryable,
  input: UpsertInput,
): Promise<{ id: string; created: boolean; at: string } | null> {
  const columns = Object.keys(input.values);
  const params: unknown[] = [
    input.id,
    input.storeId,
    input.customerId,
    ...columns.map((c) => input.values[c]),
    input.instant,
    input.now,
  ];
  const n = columns.length;
  const t = input.table;
  const ic = input.instantColumn;
  // `xmax = 0` holds for a freshly inserted row version and not for one ON CONFLICT updated: it tells
  // the sender whether the id was new. The WHERE keeps an id from reaching across stores or customers.
  const placeholders = columns.map((_, i) => `$${i + 4}`);
  const sql = `
    INSERT INTO ${t} (id, store_id, customer_id, ${columns.join(', ')}, ${ic})
    VALUES (coalesce($1::uuid, gen_random_uuid()), $2, $3, ${placeholders.join(', ')}, coalesce($${n + 4}::timestamptz, $${n + 5}::timestamptz))
    ON CONFLICT (id) DO UPDATE SET ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')},
      ${ic} = coalesce($${n + 4}::timestamptz, ${t}.${ic})
    WHERE ${t}.store_id = EXCLUDED.store_id AND ${t}.customer_id = EXCLUDED.customer_id
    RETURNING id, (xmax = 0) AS created, ${ic} AS at`;
  const res = await tx.query<{ id: string; created: boolean; at: string }>(sql, params);
  return res.rows[0] ?? null;
}

/**
 * Recomputes the relationship's roster aggregates from the activity tables (so updates, refunds and
 * back-fills converge), and stretches first/last seen to cover the record just written: the one rule
 * in db/functions/store-customer-aggregates.sql, which a class check-in calls too. It locks the row
 * and reads the totals in a later statement, so it sees every writer that held the lock before it.
 */
export async function refreshRelationship(
  tx: Queryable,
  p: {
    storeId: string;
    customerId: string;
    seenAt: string;
    marketingOptedIn: boolean | null;
    now: string;
  },
): Promise<void> {
  await tx.query('SELECT bbo_store_customer_refresh($1, $2, $3, $4, $5)', [
    p.storeId,
    p.customerId,
    p.seenAt,
    p.marketingOptedIn,
    p.now,
  ]);
}
