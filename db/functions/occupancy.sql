-- The occupancy table (unit_occupancy, migration 080) is kept by these triggers: live appointments
-- and unreleased holds, one row each, so its exclusion constraint refuses a hold over an appointment
-- and the reverse. No TypeScript calls them: every writer of appointments and holds goes through
-- src/bookings/booking-authority.ts (and the one-statement writes it calls), and the rows follow.
-- Triggers are restated here with CREATE OR REPLACE TRIGGER (PostgreSQL 14 and later) beside their
-- function, so a fresh database gets them once the function exists.

-- A hold's block defaults to its told range (a writer may insert without one).
CREATE OR REPLACE FUNCTION holds_default_block() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.block IS NULL THEN NEW.block := tstzrange(NEW.starts_at, NEW.ends_at); END IF;
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER holds_default_block BEFORE INSERT OR UPDATE ON holds FOR EACH ROW EXECUTE FUNCTION holds_default_block();

-- Whether an appointment is live: not cancelled, not a no-show (a completed or checked-in one still
-- took its time). The one definition of "live": availability's busy time, the walk-in wait model,
-- time-off's conflicts and the messages' "booked again" all ask it. Plain SQL and IMMUTABLE, so
-- PostgreSQL inlines it into the statement that calls it.
CREATE OR REPLACE FUNCTION bbo_live(status text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT status NOT IN ('cancelled', 'no_show')
$$;

-- Whether an appointment occupies its unit's time, so has its row: live, and not an override (those
-- block nobody). The one definition the trigger and its WHEN condition share.
CREATE OR REPLACE FUNCTION bbo_occupies(status text, is_override boolean) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT bbo_live(status) AND NOT is_override
$$;

-- A live appointment has its row.
CREATE OR REPLACE FUNCTION appointments_occupancy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF bbo_occupies(NEW.status, NEW.is_override) THEN
    INSERT INTO unit_occupancy (store_id, unit_id, block, appointment_id) VALUES (NEW.store_id, NEW.unit_id, NEW.block, NEW.id)
    ON CONFLICT (appointment_id) DO UPDATE SET unit_id = EXCLUDED.unit_id, block = EXCLUDED.block;
  ELSIF TG_OP = 'UPDATE' THEN
    DELETE FROM unit_occupancy WHERE appointment_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
-- An update reaches the row only when it changes what the row holds: whether the appointment
-- occupies (bbo_occupies) and where. A check-in
-- or a completion leaves the time occupied as it was, so it writes nothing here (round 14: 20-36%
-- more check-ins a second, docs/performance/history/round-14.md).
CREATE OR REPLACE TRIGGER appointments_occupancy AFTER INSERT ON appointments
  FOR EACH ROW EXECUTE FUNCTION appointments_occupancy();
CREATE OR REPLACE TRIGGER appointments_occupancy_moved AFTER UPDATE OF status, is_override, unit_id, block ON appointments
  FOR EACH ROW
  WHEN (bbo_occupies(OLD.status, OLD.is_override) IS DISTINCT FROM bbo_occupies(NEW.status, NEW.is_override)
        OR OLD.unit_id IS DISTINCT FROM NEW.unit_id OR OLD.block IS DISTINCT FROM NEW.block)
  EXECUTE FUNCTION appointments_occupancy();

-- An unreleased hold has its row (an expired one too, until a writer releases it under the unit lock).
CREATE OR REPLACE FUNCTION holds_occupancy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.released_at IS NULL THEN
    INSERT INTO unit_occupancy (store_id, unit_id, block, hold_id) VALUES (NEW.store_id, NEW.unit_id, NEW.block, NEW.id)
    ON CONFLICT (hold_id) DO UPDATE SET unit_id = EXCLUDED.unit_id, block = EXCLUDED.block;
  ELSIF TG_OP = 'UPDATE' THEN
    DELETE FROM unit_occupancy WHERE hold_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER holds_occupancy AFTER INSERT OR UPDATE OF released_at, unit_id, block ON holds
  FOR EACH ROW EXECUTE FUNCTION holds_occupancy();
