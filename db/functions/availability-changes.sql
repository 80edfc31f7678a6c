-- Which transactions changed what an availability search reads, per store (the table
-- availability_changes, migration 107): written by these triggers on every table the search reads,
-- so the database, not each writer, records the change, whatever wrote it. Owner: the availability
-- cache, src/bookings/availability/availability.cache.ts, which asks before serving a kept answer
-- whether a transaction its snapshot did not see changed the store (docs/decisions/availability.md,
-- "Availability cache"). Triggers are restated with CREATE OR REPLACE TRIGGER beside their function.

CREATE OR REPLACE FUNCTION availability_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO availability_changes (store_id) VALUES (OLD.store_id) ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO availability_changes (store_id) VALUES (NEW.store_id) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

-- The booking tables: only the columns the search reads (an appointment's notes or price never
-- change what is free).
CREATE OR REPLACE TRIGGER appointments_availability AFTER INSERT OR DELETE OR UPDATE OF status, unit_id, block, store_id ON appointments
  FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER holds_availability AFTER INSERT OR DELETE OR UPDATE OF released_at, expires_at, unit_id, block, starts_at, ends_at, store_id ON holds
  FOR EACH ROW EXECUTE FUNCTION availability_changed();

-- The store's set-up: any change (these are rare writes), one trigger per table.
CREATE OR REPLACE TRIGGER time_off_availability AFTER INSERT OR UPDATE OR DELETE ON time_off FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER unit_hours_availability AFTER INSERT OR UPDATE OR DELETE ON unit_hours FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER unit_hours_exceptions_availability AFTER INSERT OR UPDATE OR DELETE ON unit_hours_exceptions FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER units_availability AFTER INSERT OR UPDATE OR DELETE ON units FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER services_availability AFTER INSERT OR UPDATE OR DELETE ON services FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER service_variants_availability AFTER INSERT OR UPDATE OR DELETE ON service_variants FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER service_addons_availability AFTER INSERT OR UPDATE OR DELETE ON service_addons FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER service_periods_availability AFTER INSERT OR UPDATE OR DELETE ON service_periods FOR EACH ROW EXECUTE FUNCTION availability_changed();

-- The stores row itself (its settings: zone, slot step, notice, horizon).
CREATE OR REPLACE FUNCTION availability_store_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO availability_changes (store_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER stores_availability AFTER UPDATE ON stores
  FOR EACH ROW EXECUTE FUNCTION availability_store_changed();
