-- A class occurrence occupies its instructor's unit (issue 44): a live occurrence with a unit has one
-- row in unit_occupancy (migration 230), so the exclusion constraint that keeps appointments and holds
-- apart (unit_occupancy_no_overlap) refuses an appointment or a hold over a class, and the reverse.
-- Time-off is another table: the class door (bbo_class_schedule, classes.sql) and the time-off door
-- (src/bookings/time-off/) each check the other under the unit's row lock.
CREATE OR REPLACE FUNCTION class_occurrences_occupancy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.cancelled_at IS NULL AND NEW.unit_id IS NOT NULL THEN
    INSERT INTO unit_occupancy (store_id, unit_id, block, occurrence_id)
    VALUES (NEW.store_id, NEW.unit_id, tstzrange(NEW.starts_at, NEW.ends_at), NEW.id)
    ON CONFLICT (store_id, occurrence_id) DO UPDATE SET unit_id = EXCLUDED.unit_id, block = EXCLUDED.block;
  ELSIF TG_OP = 'UPDATE' THEN
    DELETE FROM unit_occupancy WHERE store_id = NEW.store_id AND occurrence_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
-- A capacity change or a waitlist counter bump leaves the occupied time as it was: no trigger then.
CREATE OR REPLACE TRIGGER class_occurrences_occupancy AFTER INSERT OR UPDATE OF cancelled_at, unit_id, starts_at, ends_at
  ON class_occurrences FOR EACH ROW EXECUTE FUNCTION class_occurrences_occupancy();

-- What the availability search reads changed (db/functions/availability-changes.sql, offered-slots.sql
-- reads live occurrences as busy): scheduling or cancelling a class is rare, so it is recorded as a
-- change of the store's set-up (every day), which the function does for a table it has no span for.
CREATE OR REPLACE TRIGGER class_occurrences_availability AFTER INSERT OR DELETE OR UPDATE OF cancelled_at, unit_id, starts_at, ends_at
  ON class_occurrences FOR EACH ROW EXECUTE FUNCTION availability_changed();
