// SQL for recording activity and keeping the store relationship and its roster aggregates true.
import type { Queryable } from '../../platform/db/port.ts';

export interface StoreRef {
  id: string;
  timezone: string;
  currency: string;
}

export async function findStore(db: Queryable, storeId: string): Promise<StoreRef | null> {
  const res = await db.query<StoreRef>('SELECT id, timezone, currency FROM stores WHERE id = $1', [storeId]);
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
 * back-fills converge), and stretches first/last seen to cover the record just written.
 * A visit is a store-local day with an attended class, a non-cancelled order or a stamp
 * (docs/decisions/customers.md): two of them on one day are one visit.
 */
export async function refreshRelationship(
  tx: Queryable,
  p: {
    storeId: string;
    customerId: string;
    timezone: string;
    seenAt: string;
    marketingOptedIn: boolean | null;
    now: string;
  },
): Promise<void> {
  await tx.query(
    `WITH visits AS (
       SELECT coalesce(attended_at, (scheduled_date + coalesce(start_time, time '00:00')) AT TIME ZONE $3, created_at) AS at
         FROM class_bookings WHERE store_id = $1 AND customer_id = $2 AND status = 'attended'
       UNION ALL
       SELECT created_at FROM orders WHERE store_id = $1 AND customer_id = $2 AND status <> 'cancelled'
       UNION ALL
       SELECT created_at FROM stamps WHERE store_id = $1 AND customer_id = $2
     ), days AS (
       SELECT (at AT TIME ZONE $3)::date AS day, min(at) AS first_at, max(at) AS last_at FROM visits GROUP BY 1
     ), visit_totals AS (
       SELECT count(*)::int AS total, min(first_at) AS first_at, max(last_at) AS last_at,
              (SELECT last_at FROM days ORDER BY day DESC OFFSET 1 LIMIT 1) AS previous_at
         FROM days
     ), order_totals AS (
       SELECT count(*)::int AS n,
              coalesce(sum(CASE WHEN status = 'refunded' THEN 0 ELSE amount_pence - least(refunded_pence, amount_pence) END), 0) AS net
         FROM orders WHERE store_id = $1 AND customer_id = $2 AND status <> 'cancelled'
     ), stamp_totals AS (
       SELECT coalesce(sum(count), 0)::int AS n FROM stamps WHERE store_id = $1 AND customer_id = $2
     )
     UPDATE store_customers sc SET
       total_visits = v.total, first_visit_at = v.first_at, last_visit_at = v.last_at, previous_visit_at = v.previous_at,
       order_count = o.n, total_spent_pence = o.net, stamp_count = s.n,
       first_seen_at = least(sc.first_seen_at, $4::timestamptz),
       last_seen_at = greatest(sc.last_seen_at, $4::timestamptz),
       marketing_opted_in = coalesce($5::boolean, sc.marketing_opted_in),
       updated_at = $6
     FROM visit_totals v, order_totals o, stamp_totals s
     WHERE sc.store_id = $1 AND sc.customer_id = $2`,
    [p.storeId, p.customerId, p.timezone, p.seenAt, p.marketingOptedIn, p.now],
  );
}
