// The roster and search as SQL: filtering, sorting, counting and paging all happen in the database
// (a store may have 100,000 customers), on the indexes of migrations 003 and 045.
import type { Queryable } from '../../platform/db/port.ts';
import { stageSql, type LifecycleStage } from './lifecycle.ts';
import type { RosterRow, SearchRow } from './roster.schemas.ts';
import { textFilter } from './text-filter.ts';

export interface RosterFilter {
  storeId: string;
  now: string;
  stage?: LifecycleStage;
  facets: string[];
  q?: string;
}

// The customer's own marketing choice for this store wins; otherwise the consent recorded with activity.
const MARKETING = 'coalesce(np.marketing_enabled, sc.marketing_opted_in)';

// Archived relationships are hidden from lists and counts; erased customers are no one.
// `clock.now` is the request's instant ($2), which the lifecycle stages are measured from.
const FROM = `(SELECT $2::timestamptz AS now) clock
  CROSS JOIN store_customers sc
  JOIN customers c ON c.id = sc.customer_id
  LEFT JOIN notification_preferences np ON np.customer_id = sc.customer_id AND np.store_id = sc.store_id`;

/** $1 is the store, $2 now; the rest are numbered on. */
function where(filter: RosterFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [filter.storeId, filter.now];
  const clauses = ['sc.store_id = $1', 'NOT sc.archived', 'c.erased_at IS NULL'];
  if (filter.stage) {
    params.push(filter.stage);
    clauses.push(`${stageSql('clock.now')} = $${params.length}`);
  }
  for (const facet of new Set(filter.facets)) {
    if (facet === 'has_orders') clauses.push('sc.order_count > 0');
    else if (facet === 'has_stamps') clauses.push('sc.stamp_count > 0');
    else if (facet === 'marketing_opted_in') clauses.push(MARKETING);
  }
  if (filter.q) {
    const text = textFilter(filter.q, params.length + 1);
    params.push(...text.params);
    clauses.push(text.sql);
  }
  return { sql: clauses.join(' AND '), params };
}

// Each order ends in the customer id so pages never overlap or skip on ties.
const ORDER_BY = {
  recent: 'sc.last_visit_at DESC NULLS LAST, sc.customer_id',
  spend: 'sc.total_spent_pence DESC, sc.customer_id',
  visits: 'sc.total_visits DESC, sc.customer_id',
  name: 'lower(c.name) ASC NULLS LAST, c.id',
} as const;

export async function rosterPage(
  db: Queryable,
  filter: RosterFilter,
  page: { sort: keyof typeof ORDER_BY; limit: number; offset: number },
): Promise<RosterRow[]> {
  const w = where(filter);
  const n = w.params.length;
  const res = await db.query<RosterRow>(
    `SELECT c.id, c.name, c.phone, c.email, sc.last_visit_at, ${stageSql('clock.now')} AS lifecycle_stage,
            sc.total_visits, sc.stamp_count, sc.order_count, sc.total_spent_pence, ${MARKETING} AS marketing_opted_in
       FROM ${FROM}
      WHERE ${w.sql}
      ORDER BY ${ORDER_BY[page.sort]}
      LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...w.params, page.limit + 1, page.offset],
  );
  return res.rows;
}

export async function rosterCount(db: Queryable, filter: RosterFilter): Promise<number> {
  const w = where(filter);
  const res = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${FROM} WHERE ${w.sql}`, w.params);
  return res.rows[0].n;
}

/** Up to `limit` customers, most recently seen first, optionally filtered by the text term. */
export async function searchCustomers(db: Queryable, storeId: string, term: string | null, limit: number): Promise<SearchRow[]> {
  const params: unknown[] = [storeId, limit];
  let match = '';
  if (term) {
    const text = textFilter(term, 3);
    params.push(...text.params);
    match = `AND ${text.sql}`;
  }
  const res = await db.query<SearchRow>(
    `SELECT c.id, c.name, c.phone, c.email, sc.last_seen_at AS last_seen
       FROM store_customers sc JOIN customers c ON c.id = sc.customer_id
      WHERE sc.store_id = $1 AND NOT sc.archived AND c.erased_at IS NULL ${match}
      ORDER BY sc.last_seen_at DESC, sc.customer_id
      LIMIT $2`,
    params,
  );
  return res.rows;
}
