DROP TRIGGER IF EXISTS appointments_occupancy ON appointments;
DROP TRIGGER IF EXISTS appointments_occupancy_moved ON appointments;
DROP TRIGGER IF EXISTS appointments_availability ON appointments;
DROP TRIGGER IF EXISTS appointments_availability_moved ON appointments;
CREATE TRIGGER appointments_occupancy AFTER INSERT OR UPDATE OF status, is_override, unit_id, block ON appointments FOR EACH ROW EXECUTE FUNCTION appointments_occupancy();
CREATE TRIGGER appointments_availability AFTER INSERT OR DELETE OR UPDATE OF status, unit_id, block, store_id ON appointments FOR EACH ROW EXECUTE FUNCTION availability_changed();
