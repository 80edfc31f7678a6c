-- The roster's aggregates of a store relationship (store_customers: total_visits, first/last/previous
-- visit, order_count, total_spent_pence, stamp_count), recomputed from the activity tables. Owners:
-- src/customers/activity/activity.repository.ts (the operator's activity: orders, stamps, class
-- bookings) and class-booking-status.sql (a class check-in). One home for the rule, so every writer
-- of a row the aggregates count calls it in the transaction that wrote the row.
-- A visit is a store-local day with an attended class, a non-cancelled order or a stamp
-- (docs/decisions/customers.md): two of them on one day are one visit.
--
-- Concurrency (docs/decisions/search-aggregates.md): the relationship row is
-- locked FOR UPDATE first, and the totals are read by the next statement, whose snapshot (READ
-- COMMITTED, a volatile function) is taken after the lock is granted. Two writers of one customer's
-- activity at one store therefore recompute one after the other, the second seeing the first's rows:
-- computed in the UPDATE's own snapshot, a writer blocked by the other's row lock would write totals
-- that miss the other's row (EvalPlanQual rechecks the row, not the values read beside it).
-- Also stretches first/last seen to cover p_seen, takes a stated marketing choice (null: unchanged)
-- and stamps updated_at.
CREATE OR REPLACE FUNCTION bbo_store_customer_refresh(p_store uuid, p_customer uuid, p_seen timestamptz,
  p_marketing boolean, p_now timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_zone text;
BEGIN
  PERFORM 1 FROM store_customers sc WHERE sc.store_id = p_store AND sc.customer_id = p_customer FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT s.timezone INTO v_zone FROM stores s WHERE s.id = p_store;
  WITH visits AS (
    SELECT coalesce(b.attended_at, (b.scheduled_date + coalesce(b.start_time, time '00:00')) AT TIME ZONE v_zone, b.created_at) AS at
      FROM class_bookings b WHERE b.store_id = p_store AND b.customer_id = p_customer AND b.status = 'attended'
    UNION ALL
    SELECT o.created_at FROM orders o WHERE o.store_id = p_store AND o.customer_id = p_customer AND o.status <> 'cancelled'
    UNION ALL
    SELECT s.created_at FROM stamps s WHERE s.store_id = p_store AND s.customer_id = p_customer
  ), days AS (
    SELECT (v.at AT TIME ZONE v_zone)::date AS day, min(v.at) AS first_at, max(v.at) AS last_at FROM visits v GROUP BY 1
  ), visit_totals AS (
    SELECT count(*)::int AS total, min(d.first_at) AS first_at, max(d.last_at) AS last_at,
           (SELECT d2.last_at FROM days d2 ORDER BY d2.day DESC OFFSET 1 LIMIT 1) AS previous_at
      FROM days d
  ), order_totals AS (
    SELECT count(*)::int AS n,
           coalesce(sum(CASE WHEN o.status = 'refunded' THEN 0 ELSE o.amount_pence - least(o.refunded_pence, o.amount_pence) END), 0) AS net
      FROM orders o WHERE o.store_id = p_store AND o.customer_id = p_customer AND o.status <> 'cancelled'
  ), stamp_totals AS (
    SELECT coalesce(sum(s.count), 0)::int AS n FROM stamps s WHERE s.store_id = p_store AND s.customer_id = p_customer
  )
  UPDATE store_customers sc SET
    total_visits = v.total, first_visit_at = v.first_at, last_visit_at = v.last_at, previous_visit_at = v.previous_at,
    order_count = o.n, total_spent_pence = o.net, stamp_count = s.n,
    first_seen_at = least(sc.first_seen_at, p_seen), last_seen_at = greatest(sc.last_seen_at, p_seen),
    marketing_opted_in = coalesce(p_marketing, sc.marketing_opted_in), updated_at = p_now
    FROM visit_totals v, order_totals o, stamp_totals s
   WHERE sc.store_id = p_store AND sc.customer_id = p_customer;
END $$;
