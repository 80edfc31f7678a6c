-- Seating a walk-in (POST /bookings/queue/assign) as one statement, like the other booking writes.
-- Owner: src/bookings/queue/queue.service.ts (assignEntry), through src/platform/one-statement.ts.
--
-- req: {store_id, entry_id, unit_id, duration_min (null: the service's, else default_walk_in_min),
--       default_walk_in_min, override, created_by}.
-- Answers {entry_id, appointment_id, assigned}. A seat refused because the unit is taken leaves as
-- UNIT_UNAVAILABLE (a hold or time-off, from bbo_clear_block) or as the exclusion violation (23P01),
-- and the caller answers both as STALE_SLOT. Either way the statement rolled back: the entry keeps
-- its status and place.
CREATE OR REPLACE FUNCTION bbo_queue_seat(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  stored     jsonb;
  v_store    uuid := (req->>'store_id')::uuid;
  v_unit     uuid := (req->>'unit_id')::uuid;
  v_override boolean := coalesce((req->>'override')::boolean, false);
  e          queue_entries;
  f          queue_entries;
  v_currency text;
  v_duration integer;
  v_price    integer;
  v_ends     timestamptz;
  v_bstart   timestamptz;
  v_bend     timestamptz;
  v_unit_ok  boolean;
  a          appointments;
  event_rows jsonb := '[]';
BEGIN
  stored := bbo_idempotency_claim(claim, at);
  IF stored IS NOT NULL THEN
    RETURN jsonb_build_object('replayed', true, 'body', stored);
  END IF;

  -- The entry's row lock decides every transition of the entry: a second seat waits here, then
  -- finds it assigned.
  SELECT * INTO e FROM queue_entries x WHERE x.store_id = v_store AND x.id = (req->>'entry_id')::uuid FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Queue entry not found');
  END IF;
  IF e.status = 'assigned' THEN
    RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
      jsonb_build_object('entry_id', e.id, 'appointment_id', e.appointment_id, 'assigned', false), '[]', '[]', actor));
  END IF;
  IF e.status NOT IN ('waiting', 'called') THEN
    PERFORM bbo_refuse('INVALID_TRANSITION', format('The entry is %s; only a waiting or called entry can be seated', e.status));
  END IF;
  SELECT st.currency INTO v_currency FROM stores st WHERE st.id = v_store;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Store not found');
  END IF;
  -- A per-person price is charged for the whole party.
  SELECT sv.duration_min, sv.price_pence * CASE WHEN sv.price_type = 'per_person' THEN e.party_size ELSE 1 END
    INTO v_duration, v_price
    FROM services sv WHERE sv.store_id = v_store AND sv.id = e.service_id;
  -- The stated length, else the service's (walkInMinutes), else the default.
  v_duration := coalesce((req->>'duration_min')::integer,
    CASE WHEN v_duration > 0 THEN v_duration ELSE (req->>'default_walk_in_min')::integer END);
  v_ends := at + make_interval(mins => v_duration);

  -- What the unit is occupied for: the visit itself, no buffers (bbo_occupied_block's checks).
  SELECT b.block_start, b.block_end INTO v_bstart, v_bend FROM bbo_occupied_block('{}', at, v_ends, 0, 0) b;

  -- The unit lock (lockUnits): serialises writers per unit, so holds and time-off are checked
  -- without a race. No client-token reuse check: under the entry lock a second seat of this entry
  -- finds it assigned above, so the token's unique index only backs that up.
  SELECT u.is_active AND u.bookable INTO v_unit_ok FROM units u WHERE u.store_id = v_store AND u.id = v_unit FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Unit not found');
  END IF;
  IF NOT v_unit_ok THEN
    PERFORM bbo_refuse('UNIT_NOT_BOOKABLE', 'The unit is inactive or not bookable');
  END IF;
  IF NOT v_override THEN
    event_rows := bbo_clear_block(v_store, v_unit, v_bstart, v_bend, at);
  END IF;
  -- The walk-in is in the shop and sitting down now: checked in, no deposit, nothing to pay yet.
  INSERT INTO appointments (store_id, unit_id, service_id, customer_id, guest_name, guest_email, guest_phone,
    starts_at, ends_at, block, status, payment_status, price_pence, deposit_pence, currency, party_size, children,
    high_chairs, source, is_override, preferred_area_id, client_token, created_by, checked_in_at, created_at, updated_at)
  VALUES (v_store, v_unit, e.service_id, e.customer_id, e.guest_name, NULL, e.guest_phone,
    at, v_ends, tstzrange(v_bstart, v_bend), 'checked_in', 'none', coalesce(v_price, 0), 0,
    v_currency, e.party_size, 0, 0, 'walk_in', v_override, NULL, 'walk_in:' || e.id, req->>'created_by', at, at, at)
  RETURNING * INTO a;

  UPDATE queue_entries x SET status = 'assigned', appointment_id = a.id
   WHERE x.store_id = v_store AND x.id = e.id
  RETURNING * INTO f;

  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
    jsonb_build_object('entry_id', e.id, 'appointment_id', a.id, 'assigned', true),
    jsonb_build_array(bbo_audit_row(actor, at, 'queue.assign', 'queue_entry', e.id::text,
      jsonb_build_object('appointment_id', a.id, 'unit_id', v_unit, 'duration_min', v_duration, 'override', v_override, 'from', e.status))),
    -- Seating books an appointment: the diary's followers see it created, then the entry assigned to it.
    event_rows
      || jsonb_build_array(bbo_event(v_store, 'appointment.created', at, bbo_appointment_json(a)))
      || jsonb_build_array(bbo_event(v_store, 'queue.assigned', at, bbo_queue_entry_json(f)
           || jsonb_build_object('unit_id', a.unit_id, 'previous', jsonb_build_object('status', e.status)))),
    actor));
END $$;
