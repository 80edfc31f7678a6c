-- A class check-in (bbo_class_booking_status, confirmed -> attended) did not refresh the roster's
-- aggregates of the customer's relationship until round 18 (db/functions/store-customer-aggregates.sql
-- now does): a visit checked in through the timetable was missing from total_visits and the visit
-- instants until the customer's next reported activity. This recomputes, once, the relationships that
-- have such a booking, with the rule of store-customer-aggregates.sql written out in plain SQL (a
-- numbered migration never calls the functions of db/functions/). Other relationships are untouched.
WITH affected AS (
  SELECT DISTINCT b.store_id, b.customer_id, s.timezone
    FROM class_bookings b JOIN stores s ON s.id = b.store_id
   WHERE b.status = 'attended' AND b.occurrence_id IS NOT NULL AND b.customer_id IS NOT NULL
), visits AS (
  SELECT a.store_id, a.customer_id, a.timezone,
         coalesce(b.attended_at, (b.scheduled_date + coalesce(b.start_time, time '00:00')) AT TIME ZONE a.timezone, b.created_at) AS at
    FROM affected a JOIN class_bookings b ON b.store_id = a.store_id AND b.customer_id = a.customer_id AND b.status = 'attended'
  UNION ALL
  SELECT a.store_id, a.customer_id, a.timezone, o.created_at
    FROM affected a JOIN orders o ON o.store_id = a.store_id AND o.customer_id = a.customer_id AND o.status <> 'cancelled'
  UNION ALL
  SELECT a.store_id, a.customer_id, a.timezone, st.created_at
    FROM affected a JOIN stamps st ON st.store_id = a.store_id AND st.customer_id = a.customer_id
), days AS (
  SELECT store_id, customer_id, (at AT TIME ZONE timezone)::date AS day, min(at) AS first_at, max(at) AS last_at
    FROM visits GROUP BY 1, 2, 3
), visit_totals AS (
  SELECT store_id, customer_id, count(*)::int AS total, min(first_at) AS first_at, max(last_at) AS last_at,
         (array_agg(last_at ORDER BY day DESC))[2] AS previous_at
    FROM days GROUP BY 1, 2
)
UPDATE store_customers sc SET
  total_visits = v.total, first_visit_at = v.first_at, last_visit_at = v.last_at, previous_visit_at = v.previous_at
  FROM visit_totals v
 WHERE sc.store_id = v.store_id AND sc.customer_id = v.customer_id
   AND (sc.total_visits, sc.first_visit_at, sc.last_visit_at, sc.previous_visit_at)
       IS DISTINCT FROM (v.total, v.first_at, v.last_at, v.previous_at);
