-- The diary's answer is built by the database in one statement (src/bookings/diary/diary.repository.ts).
-- The row type of an appointment's diary fields, whose fields are the DiaryAppointment schema's, in
-- its order (src/bookings/diary/diary.schemas.ts). Its presenter, bbo_diary_appointment, and
-- bbo_appointment_balance are in db/functions/presenters.sql.
-- Instants as bbo_iso writes them (Date.prototype.toISOString), so the row reads the same as JSON
-- and through the driver.
CREATE TYPE bbo_diary_appointment AS (
  id uuid, service_id uuid, customer_id uuid, guest_name text, guest_email text, guest_phone text,
  starts_at text, ends_at text, status text, payment_status text,
  price_pence integer, deposit_pence integer, balance_pence integer, currency text,
  party_size integer, children integer, high_chairs integer, is_override boolean,
  preferred_area_id uuid, preferred_area_name text, checked_in_at text, completed_at text, cancelled_at text
);

