-- Which transactions changed what an availability search reads, per store: one row per store and
-- transaction, written by triggers (db/functions/availability-changes.sql) on every table the
-- search reads (appointments, holds, time-off, working hours, units, services, their variants and
-- add-ons, service periods, the store's own settings). So the database, not each writer, records the change, whatever wrote it.
--
-- The availability search keeps answers it has computed and, before serving one again, asks one
-- question: did any transaction that its snapshot did not see change this store? That is an index
-- range read here (txid from the snapshot's xmin on), never a recomputation
-- (src/bookings/availability/availability.cache.ts; docs/decisions/availability.md, "Availability cache").
CREATE TABLE availability_changes (
  store_id   uuid NOT NULL,
  txid       xid8 NOT NULL DEFAULT pg_current_xact_id(),
  -- When the row was written: pruning keeps a day of them (a cached answer lives minutes).
  changed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (store_id, txid)
);
CREATE INDEX availability_changes_age ON availability_changes (changed_at);

-- The search keeps an answer until the first live hold it counted expires: that hold, by store.
CREATE INDEX holds_live_expiry ON holds (store_id, expires_at) WHERE released_at IS NULL;
