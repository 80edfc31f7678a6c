// The history search in SQL: match, group by person, count, and pick each person's recent
// appointments, all in one statement (no query per person).
//
// A person is an account ('c:<customer_id>') or a guest identity ('g:<name>|<email>', both parts
// normalised by GUEST_NAME_KEY and GUEST_EMAIL_KEY, which migration 015 indexes). A guest group
// matches as a whole because the needle is tested against the normalised key parts, which every
// row of the group shares. Account rows match on the customer's own name and email, and never for
// a customer erased under data-protection law (their rows stay; they cannot be searched out).
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
  now: Date;
  limit: number;
  visitLimit: number;
}

/** People matching the pattern, most recently seen first, one row per recent appointment. */
export async function searchPeople(q: Queryable, p: SearchParams): Promise<PersonRow[]> {
  const res = await q.query<PersonRow>(
    `WITH matched AS (
       SELECT a.id, a.starts_at, a.ends_at, a.status, a.payment_status, a.price_pence, a.currency, a.unit_id,
              a.customer_id, 'c:' || a.customer_id::text AS key,
              coalesce(c.name, btrim(a.guest_name)) AS name, c.email AS email
         FROM appointments a
         JOIN customers c ON c.id = a.customer_id
        WHERE a.store_id = $1 AND c.erased_at IS NULL
          AND (lower(c.name) LIKE $2 OR c.email LIKE $2)
       UNION ALL
       SELECT a.id, a.starts_at, a.ends_at, a.status, a.payment_status, a.price_pence, a.currency, a.unit_id,
              NULL::uuid, 'g:' || ${GUEST_NAME_KEY} || '|' || ${GUEST_EMAIL_KEY},
              nullif(btrim(a.guest_name), ''), nullif(${GUEST_EMAIL_KEY}, '')
         FROM appointments a
        WHERE a.store_id = $1 AND a.customer_id IS NULL
          AND (${GUEST_NAME_KEY} LIKE $2 OR ${GUEST_EMAIL_KEY} LIKE $2)
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
              min(starts_at) FILTER (WHERE starts_at > $3 AND status NOT IN ('cancelled', 'no_show')) AS next_visit,
              coalesce(sum(price_pence) FILTER (WHERE ${VISIT}), 0) AS spend_pence,
              -- "seen": the latest appointment that is not in the future, whatever became of it
              max(starts_at) FILTER (WHERE starts_at <= $3) AS last_seen
         FROM matched
        GROUP BY key
     ),
     ranked AS (
       SELECT people.*, count(*) OVER () AS total
         FROM people
        ORDER BY last_seen DESC NULLS LAST, next_visit ASC NULLS LAST, key COLLATE "C"
        LIMIT $4
     ),
     recent AS (
       SELECT m.*, u.display_name AS unit_name,
              row_number() OVER (PARTITION BY m.key ORDER BY m.starts_at DESC, m.id DESC) AS rn
         FROM matched m
         LEFT JOIN units u ON u.store_id = $1 AND u.id = m.unit_id
        WHERE m.key IN (SELECT key FROM ranked)
     )
     SELECT r.key, r.customer_id, r.name, r.email, r.currency, r.visits, r.no_shows, r.cancelled, r.unresolved,
            r.first_visit, r.last_visit, r.next_visit, r.spend_pence, r.total,
            v.id AS r_id, v.starts_at AS r_starts_at, v.ends_at AS r_ends_at, v.status AS r_status,
            v.payment_status AS r_payment_status, v.price_pence AS r_price_pence, v.currency AS r_currency,
            v.unit_name AS r_unit_name
       FROM ranked r
       LEFT JOIN recent v ON v.key = r.key AND v.rn <= $5
      ORDER BY r.last_seen DESC NULLS LAST, r.next_visit ASC NULLS LAST, r.key COLLATE "C", v.starts_at DESC, v.id DESC`,
    [p.storeId, p.pattern, p.now.toISOString(), p.limit, p.visitLimit],
    // How many people the pattern matches decides the best plan: plan each search for its pattern.
    { planPerCall: true },
  );
  return res.rows;
}
