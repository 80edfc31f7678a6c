-- Per-store text search (issue 46). The roster's text filter, the customer search and the appointment
-- search matched names, emails and phones through trigram indexes over every customer of the platform,
-- then kept the matches that are this store's: a probe that grows with the platform, not with the
-- store. store_customers now carries a copy of the three searchable values (lower(name), email, phone),
-- kept by the triggers of db/functions/customer-search-keys.sql, and one GIN index leads with the
-- store (btree_gin, as migration 051 did for guests), so a search reads only this store's matches.
ALTER TABLE store_customers
  ADD COLUMN search_name text,
  ADD COLUMN search_email text,
  ADD COLUMN search_phone text;
-- The appointment search now starts from the store's relationships. Every door that books an account
-- writes one (bbo_touch_store_customer); an account booked before that rule without one gets it here,
-- so the search finds everyone it found before.
INSERT INTO store_customers (store_id, customer_id, first_seen_at, last_seen_at, updated_at)
SELECT a.store_id, a.customer_id, min(a.starts_at), max(a.starts_at), now()
  FROM appointments a
 WHERE a.customer_id IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM store_customers sc WHERE sc.store_id = a.store_id AND sc.customer_id = a.customer_id)
 GROUP BY a.store_id, a.customer_id;
UPDATE store_customers sc
   SET search_name = lower(c.name), search_email = c.email, search_phone = c.phone
  FROM customers c
 WHERE c.id = sc.customer_id;
CREATE INDEX store_customers_search_trgm ON store_customers
  USING gin (store_id, search_name gin_trgm_ops, search_email gin_trgm_ops, search_phone gin_trgm_ops);
