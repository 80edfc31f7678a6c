-- An erased customer's relationships carry no search values (issue 46): db/functions/customer-search-keys.sql
-- now writes NULL search_name, search_email and search_phone and no tokens for them, whatever the customer
-- row still holds, so the searches need no per-match probe of customers.erased_at. Erasure through the
-- admin path already cleared the name, email and phone (and so their copies); this clears any relationship
-- of an erased customer that still has a value, through the small customers_erased index.
UPDATE store_customers sc
   SET search_name = NULL, search_email = NULL, search_phone = NULL, search_tokens = '{}'
  FROM customers c
 WHERE c.erased_at IS NOT NULL AND sc.customer_id = c.id
   AND (sc.search_name IS NOT NULL OR sc.search_email IS NOT NULL OR sc.search_phone IS NOT NULL
        OR sc.search_tokens <> '{}');
