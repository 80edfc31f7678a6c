-- The per-store search keys of store_customers (migration 280): the customer's lower(name), email and
-- phone copied beside each of their relationships, with their store-prefixed trigrams, so a store's
-- search reads its own posting lists of one GIN index (store_customers_search_tokens). Owners: src/customers/roster/roster.repository.ts (roster, search)
-- and src/bookings/appointment-search/appointment-search.repository.ts. One home for the rule: a
-- relationship takes its customer's values when written, and a change to a customer's name, email or
-- phone (profile, import, erasure, admin) is copied to every relationship in the same statement.
-- An erased customer's relationships carry no values at all (NULL, no tokens), whatever the customer
-- row still holds: NULL matches no LIKE and no token, so a search cannot find an erased customer by
-- any needle, and needs no per-match check of customers.erased_at (issue 46; migration 320).
-- A new relationship reads the customer FOR SHARE, so a concurrent change to that customer either
-- commits first (and is read) or waits for the relationship to commit (and then updates it).
-- The tokens of a store's values: each unpadded trigram of each value (pg_trgm's words: lower-cased
-- runs of letters and digits), prefixed by the first 8 hex digits of the store id. A search asks for
-- its needle's tokens (src/customers/roster/text-filter.ts, searchTokens), then checks the LIKE.
CREATE OR REPLACE FUNCTION bbo_search_tokens(p_store uuid, p_values text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT left(p_store::text, 8) || ':' || t), '{}')
    FROM unnest(p_values) v, unnest(show_trgm(v)) t
   WHERE t !~ ' '
$$;

-- A customer's searchable values, in the order of search_name, search_email, search_phone: none once
-- the customer is erased (erasure is final).
CREATE OR REPLACE FUNCTION bbo_customer_search_values(p_name text, p_email text, p_phone text, p_erased_at timestamptz)
RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN p_erased_at IS NULL THEN ARRAY[lower(p_name), p_email, p_phone] ELSE ARRAY[NULL, NULL, NULL]::text[] END
$$;

CREATE OR REPLACE FUNCTION store_customers_search_keys() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v text[];
BEGIN
  SELECT bbo_customer_search_values(c.name, c.email, c.phone, c.erased_at) INTO v
    FROM customers c WHERE c.id = NEW.customer_id FOR SHARE;
  NEW.search_name := v[1];
  NEW.search_email := v[2];
  NEW.search_phone := v[3];
  NEW.search_tokens := bbo_search_tokens(NEW.store_id, ARRAY[v[1], v[2], v[3]]);
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER store_customers_search_keys BEFORE INSERT OR UPDATE OF store_id, customer_id ON store_customers
  FOR EACH ROW EXECUTE FUNCTION store_customers_search_keys();

CREATE OR REPLACE FUNCTION customers_search_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v text[] := bbo_customer_search_values(NEW.name, NEW.email, NEW.phone, NEW.erased_at);
BEGIN
  UPDATE store_customers
     SET search_name = v[1], search_email = v[2], search_phone = v[3],
         search_tokens = bbo_search_tokens(store_id, v)
   WHERE customer_id = NEW.id;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER customers_search_keys_changed AFTER UPDATE OF name, email, phone, erased_at ON customers
  FOR EACH ROW WHEN (lower(OLD.name) IS DISTINCT FROM lower(NEW.name) OR OLD.email IS DISTINCT FROM NEW.email
                     OR OLD.phone IS DISTINCT FROM NEW.phone OR OLD.erased_at IS DISTINCT FROM NEW.erased_at)
  EXECUTE FUNCTION customers_search_keys_changed();
