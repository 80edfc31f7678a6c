-- The roster's stage filter narrows on recency (last visit, or first sighting for someone never
-- visited) before computing the stage, so small stages (new, active, returning) read a short range.
CREATE INDEX store_customers_recency ON store_customers (store_id, (coalesce(last_visit_at, first_seen_at)))
  WHERE NOT archived;
