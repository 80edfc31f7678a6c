DROP TRIGGER IF EXISTS appointments_occupancy ON appointments;
DROP TRIGGER IF EXISTS appointments_availability ON appointments;
CREATE TRIGGER appointments_occupancy AFTER INSERT ON appointments FOR EACH ROW EXECUTE FUNCTION appointments_occupancy();
CREATE TRIGGER appointments_occupancy_moved AFTER UPDATE OF status, is_override, unit_id, block ON appointments FOR EACH ROW
  WHEN ((OLD.status IN ('cancelled', 'no_show') OR OLD.is_override) IS DISTINCT FROM (NEW.status IN ('cancelled', 'no_show') OR NEW.is_override)
        OR OLD.unit_id IS DISTINCT FROM NEW.unit_id OR OLD.block IS DISTINCT FROM NEW.block)
  EXECUTE FUNCTION appointments_occupancy();
CREATE TRIGGER appointments_availability AFTER INSERT OR DELETE ON appointments FOR EACH ROW EXECUTE FUNCTION availability_changed();
CREATE TRIGGER appointments_availability_moved AFTER UPDATE OF status, unit_id, block, store_id ON appointments FOR EACH ROW
  WHEN ((OLD.status IN ('cancelled', 'no_show')) IS DISTINCT FROM (NEW.status IN ('cancelled', 'no_show'))
        OR OLD.unit_id IS DISTINCT FROM NEW.unit_id OR OLD.block IS DISTINCT FROM NEW.block OR OLD.store_id IS DISTINCT FROM NEW.store_id)
  EXECUTE FUNCTION availability_changed();
