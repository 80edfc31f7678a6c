// The summary report in one statement, composed from named parts (each commented). Days are the
// store's local days: a range's edges and every opening interval are wall times turned into instants
// with the store's zone, so a day the clocks change is 23 or 25 hours long where it should be.
//
// Speed (issue 45: a year of a busy shop, about 30,000 appointments, under 200 ms): the range's
// appointments are read once, narrow, and grouped by a typed key (a uuid or a date; text only in
// the final rows, because text keys sort by collation, which cost the most in the first version);
// minutes are double precision (extract() is numeric since PostgreSQL 14); each customer's first
// visit is looked for in the range, then before it through appointments_customer, instead of over
// every customer's whole history; time-off is gathered once per unit, not once per unit and day.
// docs/decisions/import-feeds-reports.md has the plans and the figures.
import type { Queryable } from '../platform/db/port.ts';

export type GroupBy = 'unit' | 'service' | 'day';

export interface SummaryRow {
  key: string | null;
  label: string | null;
  appointments: number;
  completed: number;
  checked_in: number;
  cancelled: number;
  cancelled_by_customer: number;
  cancelled_by_shop: number;
  no_show: number;
  no_show_rate: number;
  booked_minutes: number;
  working_minutes: number | null;
  utilisation: number | null;
  revenue_booked_pence: number;
  revenue_settled_pence: number;
  currency: string;
  new_customers: number;
  returning_customers: number;
}

/** Each grouping's key: an appointment's (over `a`, its local day `a.day`) and a working day's (over `w`). */
const KEYS: Record<GroupBy, { appointment: string; working: string | null }> = {
  unit: { appointment: 'a.unit_id', working: 'w.unit_id' },
  service: { appointment: 'a.service_id', working: null },
  day: { appointment: 'a.day', working: 'w.day' },
};

function summarySql(groupBy: GroupBy): string {
  const key = KEYS[groupBy];
  return `
WITH
-- The store, and the range's edges as instants (from's local midnight to the midnight after to).
s AS (
  SELECT st.id, st.timezone, st.currency,
         ($2::date)::timestamp AT TIME ZONE st.timezone AS range_start,
         ($3::date + 1)::timestamp AT TIME ZONE st.timezone AS range_end
    FROM stores st WHERE st.id = $1),
days AS (SELECT d::date AS day FROM generate_series($2::date, $3::date, interval '1 day') d),
-- The appointments that start in the range (pending payment is not yet a booking), the columns the
-- figures need and the group's key; read once.
appts AS MATERIALIZED (
  SELECT ${key.appointment} AS key, a.id, a.customer_id, a.starts_at, a.status, a.cancelled_by, a.price_pence, a.taken_pence, a.minutes
    FROM (SELECT a.*, (a.starts_at AT TIME ZONE s.timezone)::date AS day,
                 a.settled_pence + CASE WHEN a.payment_status IN ('deposit_paid', 'paid') THEN a.deposit_pence ELSE 0 END AS taken_pence,
                 date_part('epoch', a.ends_at - a.starts_at) / 60 AS minutes
            FROM appointments a, s
           WHERE a.store_id = $1 AND a.starts_at >= s.range_start AND a.starts_at < s.range_end AND a.status <> 'pending_payment') a),
booked AS (
  SELECT key,
         count(*)::int AS appointments,
         count(*) FILTER (WHERE status = 'completed')::int AS completed,
         count(*) FILTER (WHERE status = 'checked_in')::int AS checked_in,
         count(*) FILTER (WHERE status = 'cancelled')::int AS cancelled,
         count(*) FILTER (WHERE status = 'cancelled' AND cancelled_by = 'customer')::int AS cancelled_by_customer,
         count(*) FILTER (WHERE status = 'no_show')::int AS no_show,
         coalesce(sum(minutes) FILTER (WHERE status <> 'cancelled'), 0) AS booked_minutes,
         coalesce(sum(price_pence) FILTER (WHERE status <> 'cancelled'), 0)::bigint AS revenue_booked_pence,
         coalesce(sum(taken_pence), 0)::bigint AS revenue_settled_pence
    FROM appts GROUP BY key),
-- Customers' visits in the range (not cancelled; guests have no customer).
visits AS (SELECT key, customer_id, starts_at, id FROM appts WHERE customer_id IS NOT NULL AND status <> 'cancelled'),
-- Each customer's first visit in the range; it is their first at the store unless one came before the range.
firsts AS (SELECT DISTINCT ON (customer_id) customer_id, key FROM visits ORDER BY customer_id, starts_at, id),
new_customers AS (
  SELECT f.key, count(*)::int AS n
    FROM firsts f, s
   WHERE NOT EXISTS (SELECT 1 FROM appointments p
                      WHERE p.store_id = $1 AND p.customer_id = f.customer_id AND p.starts_at < s.range_start
                        AND p.status NOT IN ('cancelled', 'pending_payment'))
   GROUP BY f.key),
customers AS (SELECT key, count(*)::int AS n FROM (SELECT DISTINCT key, customer_id FROM visits) v GROUP BY key),
${
  key.working
    ? `-- Each unit's opening intervals per local day: the weekly hours, or that date's exception instead.
opening AS (
  SELECT w.unit_id, d.day, tstzrange((d.day + w.opens) AT TIME ZONE s.timezone, (d.day + w.closes) AT TIME ZONE s.timezone) AS r
    FROM s, days d JOIN unit_hours w ON w.store_id = $1 AND w.weekday = extract(dow FROM d.day)
   WHERE NOT EXISTS (SELECT 1 FROM unit_hours_exceptions e WHERE e.store_id = $1 AND e.unit_id = w.unit_id AND e.on_date = d.day)
  UNION ALL
  SELECT e.unit_id, e.on_date, tstzrange((e.on_date + e.opens) AT TIME ZONE s.timezone, (e.on_date + e.closes) AT TIME ZONE s.timezone)
    FROM s, unit_hours_exceptions e
   WHERE e.store_id = $1 AND e.on_date BETWEEN $2::date AND $3::date AND e.opens IS NOT NULL),
-- Each unit's time-off (either kind) that touches the range, as one multirange: overlaps counted once.
off AS (
  SELECT t.unit_id, range_agg(tstzrange(t.starts_at, t.ends_at)) AS mr
    FROM time_off t, s
   WHERE t.store_id = $1 AND tstzrange(t.starts_at, t.ends_at) && tstzrange(s.range_start, s.range_end)
   GROUP BY t.unit_id),
-- Working time: each day's opening less the unit's time-off, in minutes.
working_days AS (
  SELECT o.unit_id, o.day,
         (SELECT coalesce(sum(date_part('epoch', upper(x) - lower(x))), 0) / 60
            FROM unnest(o.mr - coalesce(f.mr, '{}'::tstzmultirange)) x) AS minutes
    FROM (SELECT unit_id, day, range_agg(r) AS mr FROM opening GROUP BY unit_id, day) o
    LEFT JOIN off f ON f.unit_id = o.unit_id),
working AS (SELECT ${key.working} AS key, sum(w.minutes) AS working_minutes FROM working_days w GROUP BY 1),`
    : `working AS (SELECT NULL::uuid AS key, NULL::float8 AS working_minutes WHERE false),`
}
-- Every group: those with appointments, units or days with working time, and every day of a by-day report.
keys AS (
  SELECT key FROM booked UNION SELECT key FROM working${groupBy === 'day' ? ' UNION SELECT day FROM days' : ''})
SELECT k.key::text AS key,
       ${
         groupBy === 'unit'
           ? '(SELECT u.display_name FROM units u WHERE u.store_id = $1 AND u.id = k.key)'
           : groupBy === 'service'
             ? '(SELECT sv.name FROM services sv WHERE sv.store_id = $1 AND sv.id = k.key)'
             : 'NULL::text'
       } AS label,
       coalesce(b.appointments, 0) AS appointments, coalesce(b.completed, 0) AS completed, coalesce(b.checked_in, 0) AS checked_in,
       coalesce(b.cancelled, 0) AS cancelled, coalesce(b.cancelled_by_customer, 0) AS cancelled_by_customer,
       coalesce(b.cancelled - b.cancelled_by_customer, 0) AS cancelled_by_shop, coalesce(b.no_show, 0) AS no_show,
       coalesce(round(b.no_show::numeric / nullif(b.completed + b.checked_in + b.no_show, 0), 4), 0)::float8 AS no_show_rate,
       round(coalesce(b.booked_minutes, 0))::int AS booked_minutes,
       ${key.working ? 'round(coalesce(w.working_minutes, 0))::int' : 'NULL::int'} AS working_minutes,
       round(coalesce(b.booked_minutes, 0)::numeric / nullif(w.working_minutes, 0)::numeric, 4)::float8 AS utilisation,
       coalesce(b.revenue_booked_pence, 0)::float8 AS revenue_booked_pence, coalesce(b.revenue_settled_pence, 0)::float8 AS revenue_settled_pence,
       (SELECT currency FROM s) AS currency,
       coalesce(n.n, 0) AS new_customers, coalesce(c.n, 0) - coalesce(n.n, 0) AS returning_customers
  FROM keys k
  LEFT JOIN booked b ON b.key IS NOT DISTINCT FROM k.key
  LEFT JOIN working w ON w.key = k.key
  LEFT JOIN new_customers n ON n.key IS NOT DISTINCT FROM k.key
  LEFT JOIN customers c ON c.key IS NOT DISTINCT FROM k.key
 ORDER BY k.key NULLS LAST`;
}

/** The statement of each grouping, composed once. */
const SUMMARY_SQL: Record<GroupBy, string> = {
  unit: summarySql('unit'),
  service: summarySql('service'),
  day: summarySql('day'),
};

/** The summary's groups (see docs/reports.md for every definition). */
export async function summary(
  db: Queryable,
  storeId: string,
  from: string,
  to: string,
  groupBy: GroupBy,
): Promise<SummaryRow[]> {
  return (await db.query<SummaryRow>(SUMMARY_SQL[groupBy], [storeId, from, to])).rows;
}
