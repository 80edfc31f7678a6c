-- Which transactions changed what an availability search reads, per store: one row per store and
-- transaction, written by triggers on every table the search reads (appointments, holds, time-off,
-- working hours, units, services, their variants and add-ons, service periods, the store's own
-- settings). So the database, not each writer, records the change, whatever wrote it.
--
-- The availability search keeps answers it has computed and, before serving one again, asks one
-- question: did any transaction that its snapshot did not see change this store? That is an index
-- range read here (txid from the snapshot's xmin on), never a recomputation
-- (src/bookings/availability/availability.cache.ts; docs/decisions.md, "Availability cache").
CREATE TABLE availability_changes (
  store_id   uuid NOT NULL,
  txid       xid8 NOT NULL DEFAULT pg_current_xact_id(),
  -- When the row was written: pruning keeps a day of them (a cached answer lives minutes).
  changed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (store_id, txid)
);
CREATE INDEX availability_changes_age ON availability_changes (changed_at);

CREATE FUNCTION availability_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO availability_changes (store_id) VALUES (OLD.store_id) ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO availability_changes (store_id) VALUES (NEW.store_id) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

-- The stores row itself (its settings: zone, slot step, notice, horizon).
CREATE FUNCTION availability_store_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO availability_changes (store_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

-- The booking tables: only the columns the search reads (an appointment's notes or price never
-- change what is free).
CREATE TRIGGER appointments_availability AFTER INSERT OR DELETE OR UPDATE OF status, unit_id, block, store_id ON appointments
  FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE TRIGGER holds_availability AFTER INSERT OR DELETE OR UPDATE OF released_at, expires_at, unit_id, block, starts_at, ends_at, store_id ON holds
  FOR EACH ROW EXECUTE FUNCTION availability_changed();

-- The store's set-up: any change (these are rare writes), one trigger per table.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['time_off', 'unit_hours', 'unit_hours_exceptions', 'units', 'services', 'service_variants',
                           'service_addons', 'service_periods'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION availability_changed()',
                   t || '_availability', t);
  END LOOP;
END $$;
CREATE TRIGGER stores_availability AFTER UPDATE ON stores
  FOR EACH ROW EXECUTE FUNCTION availability_store_changed();

-- The search keeps an answer until the first live hold it counted expires: that hold, by store.
CREATE INDEX holds_live_expiry ON holds (store_id, expires_at) WHERE released_at IS NULL;
