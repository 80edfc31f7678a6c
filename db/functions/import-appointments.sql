-- An import's batch of appointments (POST /api/v1/imports/appointments), one call a batch of up to
-- 500 rows. Owner: src/bookings/booking-authority.ts (importAppointments); nothing else calls it.
--
-- req: {store_id, rows: [{line, unit_id, service_id, local_start 'YYYY-MM-DD HH:MM', minutes,
--       buffer_before, buffer_after, price_pence, email, phone, name, client_token}]}, each checked
--       and normalised by the caller. Returns a JSON array of {row (the line), outcome, code, field, message}
--       with outcome 'created', 'unchanged' or 'error'.
-- Each row is booked by bbo_book_unit (book-unit.sql), the one booking function every door calls, in
-- its own subtransaction (the EXCEPTION block), so a refused row leaves no trace and never stops the
-- rest. No double booking is the exclusion constraint's decision (unit_occupancy_no_overlap through
-- the occupancy trigger), exactly as for every other door; time-off and unexpired holds refuse under
-- the unit lock, as the merchant's create refuses them.
-- The batch's blocks are noted as one availability change first (bbo_note_availability_change), so
-- each row's trigger finds its change covered instead of stacking a row version per row.
-- The appointments are source 'import' (the planner sends them no messages) and confirmed, or
-- completed when they ended before `at` (history); their events carry source 'import' with them.
CREATE OR REPLACE FUNCTION bbo_import_appointments(actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_store    uuid := (req->>'store_id')::uuid;
  v_tz       text;
  v_currency text;
  r          record;
  v_local    timestamp;
  v_starts   timestamptz;
  v_ends     timestamptz;
  v_customer uuid;
  v_block    tstzrange;
  bk         record;
  v_spans    tstzmultirange;
  a          appointments;
  v_code     text;
  v_msg      text;
  -- Arrays, appended in place: concatenating jsonb values copies the whole of them every row.
  results    jsonb[] := '{}';
  audit_rows jsonb[] := '{}';
  event_rows jsonb[] := '{}';
  v_events   jsonb;
BEGIN
  SELECT st.timezone, st.currency INTO v_tz, v_currency FROM stores st WHERE st.id = v_store;
  -- Every unit of the batch locked in id order (lockUnits): writers on a unit are serialised, so
  -- time-off is checked without a race, and two imports cannot deadlock on each other.
  PERFORM 1 FROM units u
   WHERE u.store_id = v_store AND u.id IN (SELECT DISTINCT (x->>'unit_id')::uuid FROM jsonb_array_elements(req->'rows') x)
   ORDER BY u.id FOR UPDATE;
  SELECT range_agg(tstzrange((x.local_start::timestamp AT TIME ZONE v_tz) - make_interval(mins => coalesce(x.buffer_before, 0)),
                             (x.local_start::timestamp AT TIME ZONE v_tz) + make_interval(mins => x.minutes + coalesce(x.buffer_after, 0))))
    INTO v_spans
    FROM jsonb_to_recordset(req->'rows') AS x(local_start text, minutes integer, buffer_before integer, buffer_after integer);
  IF v_spans IS NOT NULL THEN
    PERFORM bbo_note_availability_change(v_store, v_spans);
  END IF;

  FOR r IN SELECT * FROM jsonb_to_recordset(req->'rows') AS x(line integer, unit_id uuid, service_id uuid, local_start text,
      minutes integer, buffer_before integer, buffer_after integer, price_pence integer, email text, phone text, name text, client_token text)
  LOOP
    v_local := r.local_start::timestamp;
    v_starts := v_local AT TIME ZONE v_tz;
    -- A wall time the clocks skip (spring forward) does not come back from the instant it was read as.
    IF (v_starts AT TIME ZONE v_tz) <> v_local THEN
      results := array_append(results, jsonb_build_object('row', r.line, 'outcome', 'error', 'code', 'NONEXISTENT_LOCAL_TIME', 'field', 'start',
        'message', format('%s does not exist in %s (the clocks go forward then)', to_char(v_local, 'YYYY-MM-DD HH24:MI'), v_tz)));
      CONTINUE;
    END IF;
    v_ends := v_starts + make_interval(mins => r.minutes);

    -- The same row imported before (its external_id, else its content): unchanged, or refused when moved since.
    SELECT * INTO a FROM appointments x WHERE x.store_id = v_store AND x.client_token = r.client_token;
    IF FOUND THEN
      IF a.unit_id = r.unit_id AND a.starts_at = v_starts AND a.ends_at = v_ends THEN
        results := array_append(results, jsonb_build_object('row', r.line, 'outcome', 'unchanged'));
      ELSE
        results := array_append(results, jsonb_build_object('row', r.line, 'outcome', 'error', 'code', 'ALREADY_IMPORTED', 'field', 'external_id',
          'message', 'This appointment was imported before with another unit or time; move it in the diary'));
      END IF;
      CONTINUE;
    END IF;

    -- The store's customer with this email, else this mobile (never an erased one); else a guest.
    -- Two lookups, each on its unique index.
    v_customer := NULL;
    IF r.email IS NOT NULL THEN
      SELECT c.id INTO v_customer FROM customers c WHERE c.email = r.email AND c.erased_at IS NULL;
    END IF;
    IF v_customer IS NULL AND r.phone IS NOT NULL THEN
      SELECT c.id INTO v_customer FROM customers c WHERE c.phone = r.phone AND c.erased_at IS NULL;
    END IF;

    v_block := tstzrange(v_starts - make_interval(mins => coalesce(r.buffer_before, 0)), v_ends + make_interval(mins => coalesce(r.buffer_after, 0)));
    BEGIN
      SELECT * INTO bk FROM bbo_book_unit(at, v_store, r.unit_id, v_starts, v_ends, v_block,
          CASE WHEN v_ends <= at THEN 'completed' ELSE 'confirmed' END, coalesce(r.price_pence, 0), 0, v_currency, 1, 'import',
          false, r.client_token, actor->>'actor_id',
          p_service => r.service_id, p_customer => v_customer,
          p_guest_name => CASE WHEN v_customer IS NULL THEN r.name END, p_guest_email => CASE WHEN v_customer IS NULL THEN r.email END,
          p_guest_phone => CASE WHEN v_customer IS NULL THEN r.phone END);
    EXCEPTION
      WHEN exclusion_violation THEN
        results := array_append(results, jsonb_build_object('row', r.line, 'outcome', 'error', 'code', 'SLOT_TAKEN', 'field', 'start',
          'message', 'The unit is already booked for part of that time'));
        CONTINUE;
      WHEN SQLSTATE 'BB001' THEN
        GET STACKED DIAGNOSTICS v_code = MESSAGE_TEXT, v_msg = PG_EXCEPTION_DETAIL;
        results := array_append(results, jsonb_build_object('row', r.line, 'outcome', 'error', 'code', v_code, 'field', 'start', 'message', v_msg));
        CONTINUE;
    END;
    a := bk.booked;
    v_events := bk.event_rows;
    IF bk.reused THEN
      -- The same token booked meanwhile (the check above saw none): the same row again in effect.
      results := array_append(results, jsonb_build_object('row', r.line, 'outcome', 'unchanged'));
      CONTINUE;
    END IF;
    -- History: an appointment that ended before the import is completed, then.
    IF v_ends <= at THEN
      UPDATE appointments x SET completed_at = v_ends WHERE x.id = a.id;
      a.completed_at := v_ends;
    END IF;

    IF v_customer IS NOT NULL THEN
      INSERT INTO store_customers (store_id, customer_id, first_seen_at, last_seen_at, updated_at)
      VALUES (v_store, v_customer, at, at, at)
      ON CONFLICT (store_id, customer_id) DO NOTHING;
    END IF;
    results := array_append(results, jsonb_build_object('row', r.line, 'outcome', 'created', 'id', a.id));
    audit_rows := array_append(audit_rows, bbo_audit_row(actor, at, 'appointment.created', 'appointment', a.id::text,
      jsonb_build_object('unit_id', a.unit_id, 'starts_at', bbo_iso(a.starts_at), 'source', 'import')));
    IF jsonb_array_length(v_events) > 0 THEN
      event_rows := event_rows || ARRAY(SELECT jsonb_array_elements(v_events));
    END IF;
    event_rows := array_append(event_rows, bbo_event(v_store, 'appointment.created', at, bbo_appointment_json(a)));
  END LOOP;
  RETURN bbo_write_finish(NULL, at, to_jsonb(results), to_jsonb(audit_rows), to_jsonb(event_rows), actor);
END $$;
