-- Every foreign key between two store-owned tables goes through store_id (issue 29, docs/scaling.md):
-- a distributed database (Citus, distributed by store_id) can only check a key whose rows live on
-- one shard, and a key that names the store also states what was true already, that an occupancy
-- row, an appointment and a hold, or a delivery and its endpoint, belong to the same store.
-- test/platform/sharding-catalogue.test.ts reads the catalogue for the whole rule and names its exceptions.
-- Nothing is weakened: each old key is replaced by one over (store_id, same column), whose target
-- is unique because its id alone already is.

-- The targets: (store_id, id) of holds and webhook endpoints (appointments have theirs, migration 004).
ALTER TABLE holds ADD CONSTRAINT holds_store_id_id_key UNIQUE (store_id, id);
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_store_id_id_key UNIQUE (store_id, id);

-- The occupancy row of an appointment or a hold is that row's store's.
ALTER TABLE unit_occupancy
  DROP CONSTRAINT unit_occupancy_appointment_id_fkey,
  DROP CONSTRAINT unit_occupancy_hold_id_fkey,
  ADD CONSTRAINT unit_occupancy_appointment_fkey FOREIGN KEY (store_id, appointment_id)
    REFERENCES appointments (store_id, id) ON DELETE CASCADE,
  ADD CONSTRAINT unit_occupancy_hold_fkey FOREIGN KEY (store_id, hold_id)
    REFERENCES holds (store_id, id) ON DELETE CASCADE;

-- A delivery goes to an endpoint of its own store.
ALTER TABLE webhook_deliveries
  DROP CONSTRAINT webhook_deliveries_endpoint_id_fkey,
  ADD CONSTRAINT webhook_deliveries_endpoint_fkey FOREIGN KEY (store_id, endpoint_id)
    REFERENCES webhook_endpoints (store_id, id) ON DELETE CASCADE;

-- GET /metrics counts failed messages (src/platform/metrics/backlog.ts): without this the count
-- reads the whole table; with it, only the failed rows.
CREATE INDEX messages_failed ON messages (store_id) WHERE status = 'failed';
