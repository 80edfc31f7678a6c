-- Per-store text search (issue 46). The roster's text filter, the customer search and the appointment
-- search matched names, emails and phones through trigram indexes over every customer of the platform,
-- then kept the matches that are this store's: a probe that grows with the platform, not with the
-- store. store_customers now carries a copy of the three searchable values (lower(name), email, phone)
-- and their trigrams prefixed by the store (search_tokens: '<first 8 hex of store_id>:<trigram>',
-- unpadded trigrams only), kept by the triggers of db/functions/customer-search-keys.sql. A GIN index
-- on the tokens has one posting list per store and trigram, so a search reads this store's matches
-- only. (A GIN index on (store_id, trigrams) through btree_gin, as migration 051 has for guests, was
-- measured first: for the large store the planner costs its store_id entry, half the table, and reads
-- the whole table instead; bench/results/2026-11-28-w46-plans-s1-after1/.)
ALTER TABLE store_customers
  ADD COLUMN search_name text,
  ADD COLUMN search_email text,
  ADD COLUMN search_phone text,
  ADD COLUMN search_tokens text[] NOT NULL DEFAULT '{}';
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
   SET search_name = lower(c.name), search_email = c.email, search_phone = c.phone,
       -- as bbo_search_tokens (db/functions/customer-search-keys.sql) computes them
       search_tokens = coalesce((SELECT array_agg(DISTINCT left(sc.store_id::text, 8) || ':' || t)
                                   FROM unnest(ARRAY[lower(c.name), c.email, c.phone]) v, unnest(show_trgm(v)) t
                                  WHERE t !~ ' '), '{}')
  FROM customers c
 WHERE c.id = sc.customer_id;
CREATE INDEX store_customers_search_tokens ON store_customers USING gin (search_tokens);
-- The large stores' tokens are the common ones; a longer list of them lets the planner see a common
-- name coming (measured: 20,000 elements kept at scale 1).
ALTER TABLE store_customers ALTER COLUMN search_tokens SET STATISTICS 2000;
