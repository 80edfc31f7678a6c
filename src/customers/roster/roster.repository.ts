// The roster and search as SQL: filtering, sorting, counting and paging all happen in the database
// (a store may have 100,000 customers), on the indexes of migrations 003, 045, 046 and 047.
import type { Queryable } from '../../platform/db/port.ts';
import { stageRangeSql, stageSql, type LifecycleStage } from './lifecycle.ts';
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
const JOIN_CUSTOMER = 'JOIN customers c ON c.id = sc.customer_id';
const JOIN_PREFS = 'LEFT JOIN notification_preferences np ON np.customer_id = sc.customer_id AND np.store_id = sc.store_id';
// Erased customers are no one. They are rare: an anti-join on the small customers_erased index is
// far cheaper than joining every relationship to customers when only counting or paging.
const NOT_ERASED = 'NOT EXISTS (SELECT 1 FROM customers e WHERE e.id = sc.customer_id AND e.erased_at IS NOT NULL)';

interface Where {
  sql: string;
  params: unknown[];
  /** Joins the filter needs: customers for the text filter, preferences for the marketing facet. */
  joins: string[];
}

/** $1 is the store, $2 now (as clock.now); the rest are numbered on. Archived rows are hidden. */
function where(filter: RosterFilter, sortNeedsCustomer: boolean): Where {
  const params: unknown[] = [filter.storeId, filter.now];
  const clauses = ['sc.store_id = $1', 'NOT sc.archived', NOT_ERASED];
  const facets = new Set(filter.facets);
  if (filter.stage) {
    params.push(filter.stage);
    clauses.push(`${stageSql('clock.now')} = $${params.length}`, stageRangeSql(filter.stage, 'clock.now'));
  }
  if (facets.has('has_orders')) clauses.push('sc.order_count > 0');
  if (facets.has('has_stamps')) clauses.push('sc.stamp_count > 0');
  if (facets.has('marketing_opted_in')) clauses.push(MARKETING);
  if (filter.q) {
    const text = textFilter(filter.q, params.length + 1);
    params.push(...text.params);
    clauses.push(text.sql);
  }
  const joins = [];
  if (filter.q || sortNeedsCustomer) joins.push(JOIN_CUSTOMER);
  if (facets.has('marketing_opted_in')) joins.push(JOIN_PREFS);
  return { sql: clauses.join(' AND '), params, joins };
}

// `clock.now` is the request's instant ($2), which the lifecycle stages are measured from.
const CLOCK = '(SELECT $2::timestamptz AS now) clock';

// Each order ends in the customer id so pages never overlap or skip on ties.
const ORDER_BY = {
  recent: { keys: 'sc.last_visit_at DESC NULLS LAST, sc.customer_id', outer: 'p.last_visit_at DESC NULLS LAST, p.customer_id' },
  spend: { keys: 'sc.total_spent_pence DESC, sc.customer_id', outer: 'p.total_spent_pence DESC, p.customer_id' },
  visits: { keys: 'sc.total_visits DESC, sc.customer_id', outer: 'p.total_visits DESC, p.customer_id' },
  name: { keys: 'lower(c.name) ASC NULLS LAST, c.id', outer: 'lower(c.name) ASC NULLS LAST, c.id' },
} as const;
export type RosterSort = keyof typeof ORDER_BY;

/**
 * One page (limit+1 rows, to learn has_more). The page is chosen on store_customers alone where the
 * filter allows, and only its rows are joined to customers for names and contacts, so a deep
 * offset walks one index rather than joining every row it skips.
 */
export async function rosterPage(db: Queryable, filter: RosterFilter, page: { sort: RosterSort; limit: number; offset: number }): Promise<RosterRow[]> {
  const w = where(filter, page.sort === 'name');
  const n = w.params.length;
  const order = ORDER_BY[page.sort];
  const res = await db.query<RosterRow>(
    `WITH page AS (
       SELECT sc.* FROM ${CLOCK} CROSS JOIN store_customers sc ${w.joins.join(' ')}
        WHERE ${w.sql}
        ORDER BY ${order.keys}
        LIMIT $${n + 1} OFFSET $${n + 2}
     )
     SELECT c.id, c.name, c.phone, c.email, p.last_visit_at, ${stageSql('clock.now', 'p')} AS lifecycle_stage,
            p.total_visits, p.stamp_count, p.order_count, p.total_spent_pence,
            coalesce(np.marketing_enabled, p.marketing_opted_in) AS marketing_opted_in
       FROM ${CLOCK} CROSS JOIN page p
       JOIN customers c ON c.id = p.customer_id
       LEFT JOIN notification_preferences np ON np.customer_id = p.customer_id AND np.store_id = p.store_id
      ORDER BY ${order.outer}`,
    [...w.params, page.limit + 1, page.offset],
  );
  return res.rows;
}

/** The true filtered total; joins customers only when the text filter needs them. */
export async function rosterCount(db: Queryable, filter: RosterFilter): Promise<number> {
  const w = where(filter, false);
  const res = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${CLOCK} CROSS JOIN store_customers sc ${w.joins.join(' ')} WHERE ${w.sql}`,
    w.params,
  );
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
