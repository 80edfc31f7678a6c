-- Imports (src/imports/): a store's own id for a customer, from the system it came from, so the same
-- file imported again matches the same people (docs/decisions/import-feeds-reports.md). Per store: two
-- shops may both have a client "1042". Appointments carry theirs in client_token ('import:<id>'),
-- whose unique index (store_id, client_token) already exists.
ALTER TABLE store_customers ADD COLUMN external_id text CHECK (length(external_id) BETWEEN 1 AND 200);
CREATE UNIQUE INDEX store_customers_external_id ON store_customers (store_id, external_id) WHERE external_id IS NOT NULL;
