-- The journey orders class bookings by when their outcome happened; this index serves that order
-- per customer so a page stays fast however long the customer's history (docs/performance/history/round-1.md).
CREATE INDEX class_bookings_journey_order ON class_bookings
  (store_id, customer_id, (coalesce(attended_at, no_show_marked_at, cancelled_at, created_at)) DESC, id DESC);
