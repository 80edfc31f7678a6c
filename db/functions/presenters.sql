-- How a row reads as the API presents it, one definition each, called inside the one-statement
-- writes (events and answers) and by the diary's one-statement read. All plain SQL and STABLE, so
-- PostgreSQL inlines them into the calling statement.

-- What an appointment still owes, the twin of outstandingOf in
-- src/bookings/appointments/appointment-money.ts: the deposit counts only while deposit_paid, 'paid'
-- owes nothing, never negative.
CREATE OR REPLACE FUNCTION bbo_appointment_balance(a appointments) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN a.payment_status = 'paid' THEN 0
              ELSE greatest(0, a.price_pence - CASE WHEN a.payment_status = 'deposit_paid' THEN a.deposit_pence ELSE 0 END - a.settled_pence) END
$$;

-- An appointment as the API presents it (presentAppointment in
-- src/bookings/appointments/appointments.service.ts). Every write function's body and event data;
-- test/bookings/appointments/one-statement.test.ts checks the two agree.
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

-- The diary's answer is built by the database in one statement (owner:
-- src/bookings/diary/diary.repository.ts) and sent as the text it returns. An appointment's diary
-- fields have one presenter, here: a row of the composite type bbo_diary_appointment (migration 114),
-- whose fields are the DiaryAppointment schema's, in its order (src/bookings/diary/diary.schemas.ts).
-- The diary aggregates these rows to JSON (json_agg of a typed row reads its field names once, where
-- json_build_object looks up every argument's type on every row: about a third of the statement's
-- time); the one-appointment read selects the same row and adds store_id, unit_id and source.
-- test/bookings/diary/one-statement.test.ts pins both. Instants as bbo_iso writes them.
CREATE OR REPLACE FUNCTION bbo_diary_appointment(a appointments, area_name text) RETURNS bbo_diary_appointment
LANGUAGE sql STABLE AS $$
  SELECT ROW(a.id, a.service_id, a.customer_id, a.guest_name, a.guest_email, a.guest_phone,
             bbo_iso(a.starts_at), bbo_iso(a.ends_at), a.status, a.payment_status,
             a.price_pence, a.deposit_pence, bbo_appointment_balance(a), a.currency,
             a.party_size, a.children, a.high_chairs, a.is_override,
             a.preferred_area_id, area_name, bbo_iso(a.checked_in_at), bbo_iso(a.completed_at), bbo_iso(a.cancelled_at))::bbo_diary_appointment
$$;

-- A hold as its events carry it (the hold after the change): the customer's hold, confirm and
-- release (customer-hold.sql, customer-confirm.sql) and the release of expired holds (unit-blocks.sql).
CREATE OR REPLACE FUNCTION bbo_hold_json(h holds) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', h.id, 'unit_id', h.unit_id, 'customer_id', h.customer_id, 'service_id', h.service_id,
    'starts_at', bbo_iso(h.starts_at), 'ends_at', bbo_iso(h.ends_at), 'expires_at', bbo_iso(h.expires_at),
    'released_at', bbo_iso(h.released_at), 'release_reason', h.release_reason, 'appointment_id', h.appointment_id)
$$;

-- A queue entry as its events carry it (presentEntry in src/bookings/queue/queue-view.ts for an entry
-- that is not waiting: no place in the line, no expected start). Called by bbo_queue_seat.
CREATE OR REPLACE FUNCTION bbo_queue_entry_json(e queue_entries) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'entry_id', e.id, 'store_id', e.store_id, 'customer_id', e.customer_id, 'guest_name', e.guest_name,
    'guest_phone', e.guest_phone, 'service_id', e.service_id, 'preferred_unit_id', e.preferred_unit_id,
    'party_size', e.party_size, 'status', e.status, 'joined_at', bbo_iso(e.joined_at), 'called_at', bbo_iso(e.called_at),
    'quoted_wait_min', e.quoted_wait_min, 'appointment_id', e.appointment_id,
    'queue_position', NULL, 'expected_wait_min', NULL, 'expected_start', NULL, 'suggested_unit_id', NULL)
$$;
