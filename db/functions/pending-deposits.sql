-- The bookings waiting for their deposit (pending_deposits, migration 170), kept by these triggers
-- from the appointment's status, whatever wrote it: a row while the status is pending_payment, none
-- otherwise. The deposit sweep (src/bookings/deposits/deposits.repository.ts) reads it instead of an
-- index of appointments, so no index of appointments reads status and a status change can be a HOT
-- update. The WHEN conditions keep every other write from calling the function at all.
CREATE OR REPLACE FUNCTION appointments_pending_deposit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'pending_payment' THEN
    INSERT INTO pending_deposits (store_id, appointment_id) VALUES (NEW.store_id, NEW.id) ON CONFLICT DO NOTHING;
  ELSE
    DELETE FROM pending_deposits WHERE store_id = NEW.store_id AND appointment_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER appointments_pending_deposit AFTER INSERT ON appointments
  FOR EACH ROW WHEN (NEW.status = 'pending_payment') EXECUTE FUNCTION appointments_pending_deposit();
CREATE OR REPLACE TRIGGER appointments_pending_deposit_changed AFTER UPDATE OF status ON appointments
  FOR EACH ROW WHEN ((OLD.status = 'pending_payment') IS DISTINCT FROM (NEW.status = 'pending_payment'))
  EXECUTE FUNCTION appointments_pending_deposit();
