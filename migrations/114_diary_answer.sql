-- The diary's answer is built by the database in one statement (src/bookings/diary/diary.repository.ts)
-- and sent as the text it returns.
--
-- An appointment's diary fields have one presenter, here: bbo_diary_appointment, a row of the
-- composite type of the same name, whose fields are the DiaryAppointment schema's, in its order
-- (src/bookings/diary/diary.schemas.ts). The diary aggregates these rows to JSON (json_agg of a
-- typed row reads its field names once, where json_build_object looks up every argument's type on
-- every row: about a third of the statement's time); the one-appointment read selects the same row
-- and adds store_id, unit_id and source. test/bookings/diary/one-statement.test.ts pins both.
--
-- What an appointment still owes has one SQL definition too, bbo_appointment_balance (the twin of
-- outstandingOf in src/bookings/appointments/appointment-money.ts: the deposit counts only while
-- deposit_paid, 'paid' owes nothing, never negative), now also called by bbo_appointment_json.
CREATE FUNCTION bbo_appointment_balance(a appointments) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN a.payment_status = 'paid' THEN 0
              ELSE greatest(0, a.price_pence - CASE WHEN a.payment_status = 'deposit_paid' THEN a.deposit_pence ELSE 0 END - a.settled_pence) END
$$;

-- Restated from migration 100 (STABLE since 106) with the balance above; the same object.
CREATE OR REPLACE FUNCTION bbo_appointment_json(a appointments) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', a.id, 'store_id', a.store_id, 'unit_id', a.unit_id, 'service_id', a.service_id, 'customer_id', a.customer_id,
    'guest_name', a.guest_name, 'guest_email', a.guest_email, 'guest_phone', a.guest_phone,
    'starts_at', bbo_iso(a.starts_at), 'ends_at', bbo_iso(a.ends_at), 'status', a.status, 'payment_status', a.payment_status,
    'price_pence', a.price_pence, 'deposit_pence', a.deposit_pence, 'balance_pence', bbo_appointment_balance(a),
    'currency', a.currency, 'party_size', a.party_size, 'children', a.children, 'high_chairs', a.high_chairs,
    'source', a.source, 'is_override', a.is_override)
$$;

-- Instants as bbo_iso writes them (Date.prototype.toISOString), so the row reads the same as JSON
-- and through the driver.
CREATE TYPE bbo_diary_appointment AS (
  id uuid, service_id uuid, customer_id uuid, guest_name text, guest_email text, guest_phone text,
  starts_at text, ends_at text, status text, payment_status text,
  price_pence integer, deposit_pence integer, balance_pence integer, currency text,
  party_size integer, children integer, high_chairs integer, is_override boolean,
  preferred_area_id uuid, preferred_area_name text, checked_in_at text, completed_at text, cancelled_at text
);

CREATE FUNCTION bbo_diary_appointment(a appointments, area_name text) RETURNS bbo_diary_appointment
LANGUAGE sql STABLE AS $$
  SELECT ROW(a.id, a.service_id, a.customer_id, a.guest_name, a.guest_email, a.guest_phone,
             bbo_iso(a.starts_at), bbo_iso(a.ends_at), a.status, a.payment_status,
             a.price_pence, a.deposit_pence, bbo_appointment_balance(a), a.currency,
             a.party_size, a.children, a.high_chairs, a.is_override,
             a.preferred_area_id, area_name, bbo_iso(a.checked_in_at), bbo_iso(a.completed_at), bbo_iso(a.cancelled_at))::bbo_diary_appointment
$$;
