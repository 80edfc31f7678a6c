// The history search in SQL: match, group by person, count, and pick each person's recent
// appointments, all in one statement (no query per person).
//
// A person is an account ('c:<customer_id>') or a guest identity ('g:<name>|<email>', both parts
// normalised by GUEST_NAME_KEY and GUEST_EMAIL_KEY, which migration 015 indexes). A guest group
// matches as a whole because the needle is tested against the normalised key parts, which every
// row of the group shares. Account rows match on the customer's own name and email, and never for
// a customer erased under data-protection law (their rows stay; they cannot be searched out: their
// relationships' search values are NULL, db/functions/customer-search-keys.sql).
import type { Queryable } from '../../platform/db/port.ts';

// Keep these in step with migrations/051_appointment_search_by_store.sql.
export const GUEST_NAME_KEY = `lower(btrim(regexp_replace(coalesce(a.guest_name, ''), '\\s+', ' ', 'g')))`;
export const GUEST_EMAIL_KEY = `lower(btrim(coalesce(a.guest_email, '')))`;

const VISIT = `status IN ('completed', 'checked_in')`;

export interface PersonRow {
  key: string;
  customer_id: string | null;
  name: string | null;
  email: string | null;
  currency: string;
  visits: number;
  no_shows: number;
  cancelled: number;
  unresolved: number;
  first_visit: string | null;
  last_visit: string | null;
  next_visit: string | null;
  spend_pence: number;
  total: number;
  // One recent appointment per row (null when visit_limit is 0).
  r_id: string | null;
  r_starts_at: string;
  r_ends_at: string;
  r_status: string;
  r_payment_status: string;
  r_price_pence: number;
  r_currency: string;
  r_unit_name: string | null;
}

export interface SearchParams {
  storeId: string;
  /** A LIKE pattern: the escaped, normalised needle between % signs. */
  pattern: string;
  /** The store's trigram tokens of the needle (searchTokens), empty when it has no 3-character run. */
  tokens: string[];
  now: Date;
  limit: number;
  visitLimit: number;
}

// The store's matches through the booked relationships' tokens (which carry the store's prefix).
// The store is tested as a filter that no index can serve (IS TRUE: store_id is never NULL, so the
// rows are the same): a plan made once for any store would otherwise AND the tokens with the store's
// rows of store_customers_pkey, which are half the table for the flagship (1,147 buffers a search at
// scale 1, 2.6-6.2 times the plan made for the store; docs/performance/history/round-18-searches.md).
// With it the one plan fits every needle and store, so the statement is prepared and its plan cached.
const STORE_BY_TOKENS = '(sc.store_id = $1) IS TRUE AND sc.search_tokens @> $6::text[]';

/**
 * People matching the pattern, most recently seen first, one row per recent appointment.
 *
 * The people are ranked before anyone's history is read. A matching account is one of this store's
 * people once it has any appointment here, which its relationship records with its latest start;
 * only for those with a start in the future do two descents of the (store, customer, starts_at)
 * index find the last visit and the next one. A
 * guest's come from the store's matching guest rows. Only the people on the page then have their
 * whole history aggregated, so a search costs the number of matching people plus the history of the
 * page: not the history of every match (which grows with every year the store trades), nor the
 * store's bookings ahead (which grow with how busy it is).
 */
export const searchPeopleSql = (tokens: boolean) => `WITH accounts AS MATERIALIZED (
       -- Each matching account that ever booked here, its latest appointment not in the future and its
       -- next live one. The relationship records its latest start (latest_appointment_at, any status;
       -- NULL: never booked here; db/functions/latest-appointment.sql): when that is not in the future
       -- it is the last one seen and nothing is ahead, so only people with a booking ahead are probed
       -- (a scalar probe each, never a join over the store's appointments). Materialised so each probe
       -- runs once.
       -- The candidates are this store's relationships (every door that books an account writes
       -- one: bbo_touch_store_customer), matched on their copy of the customer's name and email
       -- through the store's own trigram tokens (migration 280; a needle with no run of 3 has none and
       -- reads the store's booked rows), not the platform's customers. An erased customer's relationship carries no
       -- values (NULL, no tokens: db/functions/customer-search-keys.sql), so no needle matches it and
       -- no per-match check of customers.erased_at is needed.
       SELECT sc.customer_id,
              CASE WHEN sc.latest_appointment_at <= $3 THEN sc.latest_appointment_at
                   ELSE (SELECT a.starts_at FROM appointments a
                          WHERE a.store_id = $1 AND a.customer_id = sc.customer_id AND a.starts_at <= $3
                          ORDER BY a.starts_at DESC LIMIT 1) END AS last_seen,
              CASE WHEN sc.latest_appointment_at > $3 THEN
                   (SELECT min(a.starts_at) FROM appointments a
                     WHERE a.store_id = $1 AND a.customer_id = sc.customer_id AND a.starts_at > $3
                       AND a.status NOT IN ('cancelled', 'no_show')) END AS next_visit
         FROM store_customers sc
        WHERE ${tokens ? STORE_BY_TOKENS : 'sc.store_id = $1'} AND (sc.search_name LIKE $2 OR sc.search_email LIKE $2)
          -- only relationships that ever booked here, through their own index (migration 290)
          AND sc.booked_here
     ),
     guest_rows AS (
       SELECT a.id, a.starts_at, a.ends_at, a.status, a.payment_status, a.price_pence, a.currency, a.unit_id,
              NULL::uuid AS customer_id, 'g:' || ${GUEST_NAME_KEY} || '|' || ${GUEST_EMAIL_KEY} AS key,
              nullif(btrim(a.guest_name), '') AS name, nullif(${GUEST_EMAIL_KEY}, '') AS email
         FROM appointments a
        WHERE a.store_id = $1 AND a.customer_id IS NULL
          AND (${GUEST_NAME_KEY} LIKE $2 OR ${GUEST_EMAIL_KEY} LIKE $2)
     ),
     candidates AS (
       SELECT 'c:' || customer_id::text AS key, customer_id, last_seen, next_visit
         FROM accounts
       UNION ALL
       SELECT key, NULL::uuid,
              -- "seen": the latest appointment that is not in the future, whatever became of it
              max(starts_at) FILTER (WHERE starts_at <= $3),
              min(starts_at) FILTER (WHERE starts_at > $3 AND status NOT IN ('cancelled', 'no_show'))
         FROM guest_rows
        GROUP BY key
     ),
     ranked AS (
       SELECT candidates.*, count(*) OVER () AS total
         FROM candidates
        ORDER BY last_seen DESC NULLS LAST, next_visit ASC NULLS LAST, key COLLATE "C"
        LIMIT $4
     ),
     matched AS (
       SELECT a.id, a.starts_at, a.ends_at, a.status, a.payment_status, a.price_pence, a.currency, a.unit_id,
              a.customer_id, r.key, coalesce(c.name, btrim(a.guest_name)) AS name, c.email AS email
         FROM ranked r
         JOIN customers c ON c.id = r.customer_id
         JOIN appointments a ON a.store_id = $1 AND a.customer_id = r.customer_id
       UNION ALL
       SELECT g.* FROM guest_rows g WHERE g.key IN (SELECT key FROM ranked WHERE customer_id IS NULL)
     ),
     people AS (
       SELECT key,
              (array_agg(customer_id))[1] AS customer_id,
              -- the name most recently booked under (future bookings included)
              (array_agg(name ORDER BY name IS NULL, starts_at DESC, id DESC))[1] AS name,
              (array_agg(email ORDER BY email IS NULL, starts_at DESC, id DESC))[1] AS email,
              (array_agg(currency ORDER BY starts_at DESC, id DESC))[1] AS currency,
              count(*) FILTER (WHERE ${VISIT}) AS visits,
              count(*) FILTER (WHERE status = 'no_show') AS no_shows,
              count(*) FILTER (WHERE status = 'cancelled') AS cancelled,
              count(*) FILTER (WHERE status = 'confirmed' AND starts_at < $3) AS unresolved,
              min(starts_at) FILTER (WHERE ${VISIT}) AS first_visit,
              max(starts_at) FILTER (WHERE ${VISIT}) AS last_visit,
              coalesce(sum(price_pence) FILTER (WHERE ${VISIT}), 0) AS spend_pence
         FROM matched
        GROUP BY key
     ),
     recent AS (
       SELECT m.*, u.display_name AS unit_name,
              row_number() OVER (PARTITION BY m.key ORDER BY m.starts_at DESC, m.id DESC) AS rn
         FROM matched m
         LEFT JOIN units u ON u.store_id = $1 AND u.id = m.unit_id
     )
     SELECT r.key, p.customer_id, p.name, p.email, p.currency, p.visits, p.no_shows, p.cancelled, p.unresolved,
            p.first_visit, p.last_visit, r.next_visit, p.spend_pence, r.total,
            v.id AS r_id, v.starts_at AS r_starts_at, v.ends_at AS r_ends_at, v.status AS r_status,
            v.payment_status AS r_payment_status, v.price_pence AS r_price_pence, v.currency AS r_currency,
            v.unit_name AS r_unit_name
       FROM ranked r
       JOIN people p ON p.key = r.key
       LEFT JOIN recent v ON v.key = r.key AND v.rn <= $5
      ORDER BY r.last_seen DESC NULLS LAST, r.next_visit ASC NULLS LAST, r.key COLLATE "C", v.starts_at DESC, v.id DESC`;

const WITH_TOKENS = searchPeopleSql(true);
const WITHOUT_TOKENS = searchPeopleSql(false);

export async function searchPeople(q: Queryable, p: SearchParams): Promise<PersonRow[]> {
  const params = [p.storeId, p.pattern, p.now.toISOString(), p.limit, p.visitLimit];
  // A needle with no run of 3 reads the store's booked relationships by the store's index: how large
  // the store is decides that plan (a sequential scan for the flagship), so it is planned per call.
  const res = p.tokens.length
    ? await q.query<PersonRow>(WITH_TOKENS, [...params, p.tokens])
    : await q.query<PersonRow>(WITHOUT_TOKENS, params, { planPerCall: true });
  return res.rows;
}
