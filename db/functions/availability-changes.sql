-- Which transactions changed what an availability search reads, per store, and when in the diary
-- (the table availability_changes, migrations 107 and 140): written by these triggers on every table
-- the search reads, so the database, not each writer, records the change, whatever wrote it. Owner:
-- the availability cache, src/bookings/availability/availability.cache.ts, which asks before
-- serving a kept day whether a transaction its snapshot did not see changed the store on or near
-- that day (docs/decisions/availability.md, "Availability cache"). Triggers are restated with
-- CREATE OR REPLACE TRIGGER beside their function.

-- One row per store and transaction; a transaction's later changes widen its row's blocks:
-- - appointments and holds: the block (buffers included) the row occupied before the change and after;
-- - time-off: its range, before and after;
-- - the store's set-up (working hours and exceptions, units, services, variants, add-ons, service
--   periods, the store's own settings): NULL, "every day", which stays NULL (NULL + anything is NULL).
-- The one write of a change: the transaction's row for the store created, or widened by spans (NULL:
-- every day). A change its row already covers writes nothing: a transaction that changes the same
-- store many times (an import's 2,000 rows, each in its own subtransaction) would otherwise stack a
-- row version per change, all of its own and none prunable, and each upsert walks them: quadratic
-- (issue 45 measured 0.25 s a 200-row batch growing to 0.48 s and more). A writer that knows its
-- coming changes (the import's batch) may note their union first, so each row's trigger finds it
-- covered. Over-noting is safe: the cache only recomputes more.
CREATE OR REPLACE FUNCTION bbo_note_availability_change(p_store uuid, p_spans tstzmultirange) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO availability_changes (store_id, blocks) VALUES (p_store, p_spans)
  ON CONFLICT (store_id, txid) DO UPDATE SET blocks = availability_changes.blocks + EXCLUDED.blocks
   WHERE availability_changes.blocks IS NOT NULL
     AND (EXCLUDED.blocks IS NULL OR NOT availability_changes.blocks @> EXCLUDED.blocks);
END $$;

CREATE OR REPLACE FUNCTION availability_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  store uuid;
  spans tstzmultirange := '{}';
BEGIN
  IF TG_TABLE_NAME = 'stores' THEN store := NEW.id;
  ELSIF TG_OP = 'DELETE' THEN store := OLD.store_id;
  ELSE store := NEW.store_id;
  END IF;
  IF TG_TABLE_NAME IN ('appointments', 'holds') THEN
    IF TG_OP <> 'INSERT' THEN spans := spans + tstzmultirange(OLD.block); END IF;
    IF TG_OP <> 'DELETE' THEN spans := spans + tstzmultirange(NEW.block); END IF;
  ELSIF TG_TABLE_NAME = 'time_off' THEN
    IF TG_OP <> 'INSERT' THEN spans := spans + tstzmultirange(tstzrange(OLD.starts_at, OLD.ends_at)); END IF;
    IF TG_OP <> 'DELETE' THEN spans := spans + tstzmultirange(tstzrange(NEW.starts_at, NEW.ends_at)); END IF;
  ELSE
    spans := NULL;
  END IF;
  PERFORM bbo_note_availability_change(store, spans);
  RETURN NULL;
END $$;

-- The booking tables: only what the search reads (an appointment's notes or price never change what
-- is free). The search counts an appointment as busy unless it is cancelled or a no-show
-- (offered-slots.sql), so a change between the other statuses (a check-in, a completion) is no
-- change to it and is not recorded.
CREATE OR REPLACE TRIGGER appointments_availability AFTER INSERT OR DELETE ON appointments
  FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER appointments_availability_moved AFTER UPDATE OF status, unit_id, block, store_id ON appointments
  FOR EACH ROW
  WHEN ((OLD.status IN ('cancelled', 'no_show')) IS DISTINCT FROM (NEW.status IN ('cancelled', 'no_show'))
        OR OLD.unit_id IS DISTINCT FROM NEW.unit_id OR OLD.block IS DISTINCT FROM NEW.block OR OLD.store_id IS DISTINCT FROM NEW.store_id)
  EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER holds_availability AFTER INSERT OR DELETE OR UPDATE OF released_at, expires_at, unit_id, block, starts_at, ends_at, store_id ON holds
  FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER time_off_availability AFTER INSERT OR UPDATE OR DELETE ON time_off FOR EACH ROW EXECUTE FUNCTION availability_changed();

-- The store's set-up, one trigger per table.
CREATE OR REPLACE TRIGGER unit_hours_availability AFTER INSERT OR UPDATE OR DELETE ON unit_hours FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER unit_hours_exceptions_availability AFTER INSERT OR UPDATE OR DELETE ON unit_hours_exceptions FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER units_availability AFTER INSERT OR UPDATE OR DELETE ON units FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER services_availability AFTER INSERT OR UPDATE OR DELETE ON services FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER service_variants_availability AFTER INSERT OR UPDATE OR DELETE ON service_variants FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER service_addons_availability AFTER INSERT OR UPDATE OR DELETE ON service_addons FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE OR REPLACE TRIGGER service_periods_availability AFTER INSERT OR UPDATE OR DELETE ON service_periods FOR EACH ROW EXECUTE FUNCTION availability_changed();

-- The stores row itself (its settings: zone, slot step, notice, horizon).
CREATE OR REPLACE TRIGGER stores_availability AFTER UPDATE ON stores
  FOR EACH ROW EXECUTE FUNCTION availability_changed();
