-- The diary's answer is built by the database in one statement (src/bookings/diary/diary.repository.ts)
-- and sent as the text it returns. An appointment's diary fields have one presenter, here: the
-- appointment as the API presents it (bbo_appointment_json, migration 100, with its balance) plus
-- the preferred area and the three status instants. The one-appointment read
-- (GET /bookings/appointments/{id}) answers exactly this; the diary drops store_id, unit_id and
-- source, which its column already says. test/bookings/diary/one-statement.test.ts pins both.
CREATE FUNCTION bbo_appointment_detail_json(a appointments, area_name text) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT bbo_appointment_json(a) || jsonb_build_object(
    'preferred_area_id', a.preferred_area_id, 'preferred_area_name', area_name,
    'checked_in_at', bbo_iso(a.checked_in_at), 'completed_at', bbo_iso(a.completed_at), 'cancelled_at', bbo_iso(a.cancelled_at))
$$;
