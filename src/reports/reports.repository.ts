// The summary report in one statement, composed from named parts (each commented). Days are the
// store's local days: a range's edges and every opening interval are wall times turned into instants
// with the store's zone, so a day the clocks change is 23 or 25 hours long where it should be.
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

const SUMMARY_SQL = `
WITH
-- The store, and the range's edges as instants (from's local midnight to the midnight after to).
s AS (
  SELECT st.id, st.timezone, st.currency,
         ($2::date)::timestamp AT TIME ZONE st.timezone AS range_start,
         ($3::date + 1)::timestamp AT TIME ZONE st.timezone AS range_end
    FROM stores st WHERE st.id = $1),
days AS (SELECT d::date AS day FROM generate_series($2::date, $3::date, interval '1 day') d),
-- The appointments that start in the range (pending payment is not yet a booking), with their local day.
appts AS (
  SELECT a.id, a.unit_id, a.service_id, a.customer_id, a.status, a.cancelled_by, a.price_pence,
         a.settled_pence + CASE WHEN a.payment_status IN ('deposit_paid', 'paid') THEN a.deposit_pence ELSE 0 END AS taken_pence,
         extract(epoch FROM a.ends_at - a.starts_at) / 60 AS minutes,
         (a.starts_at AT TIME ZONE s.timezone)::date AS day
    FROM appointments a, s
   WHERE a.store_id = $1 AND a.starts_at >= s.range_start AND a.starts_at < s.range_end AND a.status <> 'pending_payment'),
-- Each customer's first appointment at the store (not cancelled): new in the group that holds it.
firsts AS (
  SELECT DISTINCT ON (a.customer_id) a.customer_id, a.id
    FROM appointments a
   WHERE a.store_id = $1 AND a.customer_id IN (SELECT customer_id FROM appts) AND a.status NOT IN ('cancelled', 'pending_payment')
   ORDER BY a.customer_id, a.starts_at, a.id),
-- The group of each appointment.
keyed AS (
  SELECT CASE $4 WHEN 'unit' THEN a.unit_id::text WHEN 'service' THEN a.service_id::text ELSE a.day::text END AS key,
         a.*, (f.id = a.id) AS first_visit
    FROM appts a LEFT JOIN firsts f ON f.customer_id = a.customer_id),
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
         coalesce(sum(taken_pence), 0)::bigint AS revenue_settled_pence,
         count(DISTINCT customer_id) FILTER (WHERE status <> 'cancelled' AND first_visit)::int AS new_customers,
         count(DISTINCT customer_id) FILTER (WHERE status <> 'cancelled')::int AS customers
    FROM keyed GROUP BY key),
-- Each unit's opening intervals per local day: the weekly hours, or that date's exception instead.
opening AS (
  SELECT w.unit_id, d.day, tstzrange((d.day + w.opens) AT TIME ZONE s.timezone, (d.day + w.closes) AT TIME ZONE s.timezone) AS r
    FROM s, days d JOIN unit_hours w ON w.store_id = $1 AND w.weekday = extract(dow FROM d.day)
   WHERE NOT EXISTS (SELECT 1 FROM unit_hours_exceptions e WHERE e.store_id = $1 AND e.unit_id = w.unit_id AND e.on_date = d.day)
  UNION ALL
  SELECT e.unit_id, e.on_date, tstzrange((e.on_date + e.opens) AT TIME ZONE s.timezone, (e.on_date + e.closes) AT TIME ZONE s.timezone)
    FROM s, unit_hours_exceptions e
   WHERE e.store_id = $1 AND e.on_date BETWEEN $2::date AND $3::date AND e.opens IS NOT NULL),
opening_days AS (SELECT o.unit_id, o.day, range_agg(o.r) AS mr FROM opening o GROUP BY o.unit_id, o.day),
-- Working time: the day's opening less the unit's time-off (either kind), as multiranges, in minutes.
working_days AS (
  SELECT o.unit_id, o.day,
         (SELECT coalesce(sum(extract(epoch FROM upper(x) - lower(x))), 0) / 60
            FROM unnest(o.mr - coalesce((
              SELECT range_agg(tstzrange(t.starts_at, t.ends_at)) FROM time_off t
               WHERE t.store_id = $1 AND t.unit_id = o.unit_id AND tstzrange(t.starts_at, t.ends_at) && o.mr), '{}'::tstzmultirange)) x) AS minutes
    FROM opening_days o),
working AS (
  SELECT CASE $4 WHEN 'unit' THEN unit_id::text ELSE day::text END AS key, sum(minutes) AS working_minutes
    FROM working_days WHERE $4 <> 'service' GROUP BY 1),
-- Every group: those with appointments, units or days with working time, and every day of a by-day report.
keys AS (
  SELECT key FROM booked UNION SELECT key FROM working UNION SELECT day::text FROM days WHERE $4 = 'day')
SELECT k.key,
       CASE $4 WHEN 'unit' THEN (SELECT u.display_name FROM units u WHERE u.store_id = $1 AND u.id::text = k.key)
               WHEN 'service' THEN (SELECT sv.name FROM services sv WHERE sv.store_id = $1 AND sv.id::text = k.key) END AS label,
       coalesce(b.appointments, 0) AS appointments, coalesce(b.completed, 0) AS completed, coalesce(b.checked_in, 0) AS checked_in,
       coalesce(b.cancelled, 0) AS cancelled, coalesce(b.cancelled_by_customer, 0) AS cancelled_by_customer,
       coalesce(b.cancelled - b.cancelled_by_customer, 0) AS cancelled_by_shop, coalesce(b.no_show, 0) AS no_show,
       coalesce(round(b.no_show::numeric / nullif(b.completed + b.checked_in + b.no_show, 0), 4), 0)::float8 AS no_show_rate,
       round(coalesce(b.booked_minutes, 0))::int AS booked_minutes,
       CASE WHEN $4 <> 'service' THEN round(coalesce(w.working_minutes, 0))::int END AS working_minutes,
       round(coalesce(b.booked_minutes, 0)::numeric / nullif(w.working_minutes, 0)::numeric, 4)::float8 AS utilisation,
       coalesce(b.revenue_booked_pence, 0)::float8 AS revenue_booked_pence, coalesce(b.revenue_settled_pence, 0)::float8 AS revenue_settled_pence,
       (SELECT currency FROM s) AS currency,
       coalesce(b.new_customers, 0) AS new_customers, coalesce(b.customers - b.new_customers, 0) AS returning_customers
  FROM keys k LEFT JOIN booked b ON b.key IS NOT DISTINCT FROM k.key LEFT JOIN working w ON w.key = k.key
 ORDER BY k.key NULLS LAST`;

/** The summary's groups (see docs/reports.md for every definition). */
export async function summary(db: Queryable, storeId: string, from: string, to: string, groupBy: GroupBy): Promise<SummaryRow[]> {
  return (await db.query<SummaryRow>(SUMMARY_SQL, [storeId, from, to, groupBy])).rows;
}
