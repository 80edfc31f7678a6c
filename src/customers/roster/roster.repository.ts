// The roster and search as SQL: filtering, sorting, counting and paging all happen in the database
// (a store may have 100,000 customers), on the indexes of migrations 003, 045, 046, 047 and 280 (the
// text filter reads the store's own trigram index, text-filter.ts).
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
const JOIN_PREFS =
  'LEFT JOIN notification_preferences np ON np.customer_id = sc.customer_id AND np.store_id = sc.store_id';
// Erased customers are no one. They are rare: an anti-join on the small customers_erased index is
// far cheaper than joining every relationship to customers when only counting or paging. A text filter
// needs none: an erased customer's relationships carry no search values (migration 320,
// db/functions/customer-search-keys.sql), so no needle matches one, and the probe cost one buffer a match.
const NOT_ERASED = 'NOT EXISTS (SELECT 1 FROM customers e WHERE e.id = sc.customer_id AND e.erased_at IS NOT NULL)';

interface Where {
  sql: string;
  params: unknown[];
  /** Joins the filter needs: customers for the name sort, preferences for the marketing facet. */
  joins: string[];
}

/** $1 is the store, $2 now (as clock.now); the rest are numbered on. Archived rows are hidden. */
function where(filter: RosterFilter, sortNeedsCustomer: boolean): Where {
  const params: unknown[] = [filter.storeId, filter.now];
  const clauses = ['sc.store_id = $1', 'NOT sc.archived'];
  if (!filter.q) clauses.push(NOT_ERASED);
  const facets = new Set(filter.facets);
  if (filter.stage) {
    params.push(filter.stage);
    clauses.push(`${stageSql('clock.now')} = $${params.length}`, stageRangeSql(filter.stage, 'clock.now'));
  }
  if (facets.has('has_orders')) clauses.push('sc.order_count > 0');
  if (facets.has('has_stamps')) clauses.push('sc.stamp_count > 0');
  if (facets.has('marketing_opted_in')) clauses.push(MARKETING);
  if (filter.q) {
    const text = textFilter(filter.q, params.length + 1, filter.storeId);
    params.push(...text.params);
    clauses.push(text.sql);
  }
  const joins = [];
  if (sortNeedsCustomer) joins.push(JOIN_CUSTOMER);
  if (facets.has('marketing_opted_in')) joins.push(JOIN_PREFS);
  return { sql: clauses.join(' AND '), params, joins };
}

// How many customers a text pattern matches decides the best plan, so a filtered query is planned for
// its pattern on every call rather than once for any pattern.
const PLAN_FOR_PATTERN = { planPerCall: true };

// `clock.now` is the request's instant ($2), which the lifecycle stages are measured from.
const CLOCK = '(SELECT $2::timestamptz AS now) clock';

// Each order ends in the customer id so pages never overlap or skip on ties. `keys` sorts
// store_customers `sc` (and customers `c`); `outer` re-sorts the chosen page `p`.
const ORDER_BY = {
  recent: {
    keys: 'sc.last_visit_at DESC NULLS LAST, sc.customer_id',
    outer: 'p.last_visit_at DESC NULLS LAST, p.customer_id',
  },
  spend: { keys: 'sc.total_spent_pence DESC, sc.customer_id', outer: 'p.total_spent_pence DESC, p.customer_id' },
  visits: { keys: 'sc.total_visits DESC, sc.customer_id', outer: 'p.total_visits DESC, p.customer_id' },
  name: { keys: 'lower(c.name) ASC NULLS LAST, c.id', outer: 'lower(c.name) ASC NULLS LAST, c.id' },
} as const;
export type RosterSort = keyof typeof ORDER_BY;

/** The order of gathered matches `p`, which carry the customer's own name beside the relationship. */
function matchesOrder(sort: RosterSort): string {
  return sort === 'name' ? 'lower(p.name) ASC NULLS LAST, p.customer_id' : ORDER_BY[sort].outer;
}

export interface RosterPaging {
  sort: RosterSort;
  limit: number;
  offset: number;
}

// A page row's fields from store_customers `p`, with the customer's own marketing choice winning.
const ROW_FIELDS = `p.last_visit_at, ${stageSql('clock.now', 'p')} AS lifecycle_stage,
            p.total_visits, p.stamp_count, p.order_count, p.total_spent_pence,
            coalesce(np.marketing_enabled, p.marketing_opted_in) AS marketing_opted_in`;
const JOIN_PAGE_PREFS =
  'LEFT JOIN notification_preferences np ON np.customer_id = p.customer_id AND np.store_id = p.store_id';

/**
 * One page (limit+1 rows, to learn has_more). The page is chosen on store_customers alone where the
 * filter allows, and only its rows are joined to customers for names and contacts, so a deep
 * offset walks one index rather than joining every row it skips.
 */
export async function rosterPage(db: Queryable, filter: RosterFilter, page: RosterPaging): Promise<RosterRow[]> {
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
     SELECT c.id, c.name, c.phone, c.email, ${ROW_FIELDS}
       FROM ${CLOCK} CROSS JOIN page p
       JOIN customers c ON c.id = p.customer_id
       ${JOIN_PAGE_PREFS}
      ORDER BY ${order.outer}`,
    [...w.params, page.limit + 1, page.offset],
  );
  return res.rows;
}

/**
 * The page and the filtered total in one statement when a text filter is present. The matches are
 * found first (this store's trigram index on store_customers, migration 280) and only they
 * are sorted, so the cost follows the number of matches rather than the size of the store; walking
 * the sort index and testing the text on each row it passes would read most of a large store to fill
 * a page of a rare name. The total is null when the page is past the end (no row to carry it).
 * The matches carry the customer's name only for the name sort, which orders by it; the other sorts
 * order by the relationship's own columns, so only the page is joined to customers (an index descent
 * and a heap page per match saved). A walk of the sort's index as the customer search does
 * (search-plan.ts) would not pay here: the exact total reads every match anyway, and the page comes
 * out of the same read (docs/decisions/search-aggregates.md).
 */
export async function rosterMatchesPage(
  db: Queryable,
  filter: RosterFilter,
  page: RosterPaging,
): Promise<{ rows: RosterRow[]; total: number | null }> {
  const byName = page.sort === 'name';
  const w = where(filter, byName);
  const n = w.params.length;
  const order = matchesOrder(page.sort);
  const named = byName ? ', c.name, c.phone, c.email' : '';
  const contact = byName ? 'p.name, p.phone, p.email' : 'c.name, c.phone, c.email';
  const res = await db.query<RosterRow & { total: number }>(
    `WITH matches AS MATERIALIZED (
       SELECT sc.store_id, sc.customer_id, sc.first_seen_at, sc.last_visit_at, sc.previous_visit_at,
              sc.total_visits, sc.stamp_count, sc.order_count, sc.total_spent_pence, sc.marketing_opted_in${named}
         FROM ${CLOCK} CROSS JOIN store_customers sc ${w.joins.join(' ')}
        WHERE ${w.sql}
     ),
     page AS (
       SELECT p.*, count(*) OVER () AS total FROM matches p
        ORDER BY ${order}
        LIMIT $${n + 1} OFFSET $${n + 2}
     )
     SELECT p.customer_id AS id, ${contact}, ${ROW_FIELDS}, p.total::int AS total
       FROM ${CLOCK} CROSS JOIN page p
       ${byName ? '' : 'JOIN customers c ON c.id = p.customer_id'}
       ${JOIN_PAGE_PREFS}
      ORDER BY ${order}`,
    [...w.params, page.limit + 1, page.offset],
    PLAN_FOR_PATTERN,
  );
  const total = res.rows.length > 0 ? res.rows[0].total : null;
  return { rows: res.rows.map(({ total: _, ...row }) => row), total };
}

/** The true filtered total; joins customers only when the text filter needs them. */
export async function rosterCount(db: Queryable, filter: RosterFilter): Promise<number> {
  const w = where(filter, false);
  const res = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${CLOCK} CROSS JOIN store_customers sc ${w.joins.join(' ')} WHERE ${w.sql}`,
    w.params,
    filter.q ? PLAN_FOR_PATTERN : undefined,
  );
  return res.rows[0].n;
}

// What the recency walk reads of each relationship it examines: the order and the searchable values.
const WALKED =
  'sc.store_id, sc.customer_id, sc.archived, sc.last_seen_at, sc.search_name, sc.search_email, sc.search_phone';

/**
 * How the customer search reads a term's matches (search-plan.ts chooses): the recency walk, which
 * examines at most `cap` relationships (null: all), or the matches through the store's tokens.
 */
export type SearchPlan = { kind: 'matches' } | { kind: 'walk'; cap: number | null };

/**
 * Up to `limit` customers, most recently seen first, optionally filtered by the text term, by the
 * plan search-plan.ts chose for the term: `walk` reads the store's recency index and tests each
 * relationship until the page is full (a common name), giving up after `cap` relationships (the page
 * is then short, and the caller asks for the matches); `matches` reads the term's matches through the
 * store's trigram tokens and sorts them (a rare one). A full page from the walk is the same page: it
 * examined every relationship more recent than its last row. Only the page is joined to customers: an erased
 * customer's relationships carry no search values (the one erasure statement clears the customer's
 * name, email and phone, and customer-search-keys.sql copies that in the same statement), so a term
 * never matches one; the page's join still leaves any out. Without a term, the most recent live ones.
 */
export async function searchCustomers(
  db: Queryable,
  storeId: string,
  term: string | null,
  limit: number,
  plan: SearchPlan = { kind: 'matches' },
): Promise<SearchRow[]> {
  if (!term) {
    const res = await db.query<SearchRow>(
      `SELECT c.id, c.name, c.phone, c.email, sc.last_seen_at AS last_seen
         FROM store_customers sc JOIN customers c ON c.id = sc.customer_id
        WHERE sc.store_id = $1 AND NOT sc.archived AND c.erased_at IS NULL
        ORDER BY sc.last_seen_at DESC, sc.customer_id
        LIMIT $2`,
      [storeId, limit],
    );
    return res.rows;
  }
  const walk = plan.kind === 'walk';
  const cap = walk ? plan.cap : null;
  const params: unknown[] = cap === null ? [storeId, limit] : [storeId, limit, cap];
  const text = textFilter(term, params.length + 1, storeId, !walk);
  const recent = 'ORDER BY sc.last_seen_at DESC, sc.customer_id';
  const own = 'sc.store_id = $1 AND NOT sc.archived';
  // The capped walk's inner LIMIT bounds the relationships it examines; the outer stops at the page.
  const walked =
    cap === null
      ? 'store_customers sc'
      : `(SELECT ${WALKED} FROM store_customers sc WHERE ${own} ${recent} LIMIT $3) sc`;
  const page = walk
    ? `page AS (SELECT sc.customer_id, sc.last_seen_at FROM ${walked} WHERE ${own} AND ${text.sql} ${recent} LIMIT $2)`
    : `matches AS MATERIALIZED (SELECT sc.customer_id, sc.last_seen_at FROM store_customers sc WHERE ${own} AND ${text.sql}),
     page AS (SELECT * FROM matches m ORDER BY m.last_seen_at DESC, m.customer_id LIMIT $2)`;
  const res = await db.query<SearchRow>(
    `WITH ${page}
     SELECT c.id, c.name, c.phone, c.email, p.last_seen_at AS last_seen
       FROM page p JOIN customers c ON c.id = p.customer_id
      WHERE c.erased_at IS NULL
      ORDER BY p.last_seen_at DESC, p.customer_id`,
    [...params, ...text.params],
    cap === null ? PLAN_FOR_PATTERN : undefined, // a capped walk has one plan for any term (round-18-searches.md)
  );
  return res.rows;
}

/** The statistics search-plan.ts chooses from: pg_stats of store_customers.search_tokens and store_id. */
export interface SearchStatistics {
  rows: number;
  elems: string[] | null;
  elem_freqs: number[] | null;
  stores: string[] | null;
  store_freqs: number[] | null;
}

export async function readSearchStatistics(db: Queryable): Promise<SearchStatistics | null> {
  const res = await db.query<SearchStatistics>(
    `SELECT c.reltuples::float8 AS rows,
            t.most_common_elems::text::text[] AS elems, t.most_common_elem_freqs::float8[] AS elem_freqs,
            s.most_common_vals::text::text[] AS stores, s.most_common_freqs::float8[] AS store_freqs
       FROM pg_class c
       LEFT JOIN pg_stats t ON t.schemaname = c.relnamespace::regnamespace::text
             AND t.tablename = 'store_customers' AND t.attname = 'search_tokens'
       LEFT JOIN pg_stats s ON s.schemaname = c.relnamespace::regnamespace::text
             AND s.tablename = 'store_customers' AND s.attname = 'store_id'
      WHERE c.oid = 'store_customers'::regclass`,
  );
  return res.rows[0] ?? null;
}
