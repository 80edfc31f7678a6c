-- Seating a walk-in (POST /bookings/queue/assign) as one statement, like the other booking writes.
-- Owner: src/bookings/queue/queue.service.ts (assignEntry), through src/platform/one-statement.ts.
--
-- req: {store_id, entry_id, unit_id, duration_min (null: bbo_walk_in_minutes), override, created_by}.
-- Answers {entry_id, appointment_id, assigned}. A seat refused because the unit is taken leaves as
-- UNIT_UNAVAILABLE (a hold or time-off, from bbo_clear_block) or as the exclusion violation (23P01),
-- and the caller answers both as STALE_SLOT. Either way the statement rolled back: the entry keeps
-- its status and place.
-- How long a walk-in occupies a unit: its service's length, else the spec's 30 minutes (no service,
-- or a service with no length). The seat books it; the live queue's wait model places entries by it
-- (src/bookings/queue/queue.repository.ts reads it with the entries).
CREATE OR REPLACE FUNCTION bbo_walk_in_minutes(service_min integer) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN service_min > 0 THEN service_min ELSE 30 END
$$;

CREATE OR REPLACE FUNCTION bbo_queue_seat(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
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
  bk         record;
  a          appointments;
  event_rows jsonb := '[]';
BEGIN
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
  v_currency := bbo_store_currency(v_store);
  -- The one price rule (bbo_party_price): a per-person price is charged for the whole party.
  SELECT sv.duration_min, bbo_party_price(sv.price_type, sv.price_pence, e.party_size)
    INTO v_duration, v_price
    FROM services sv WHERE sv.store_id = v_store AND sv.id = e.service_id;
  -- The stated length, else the walk-in's (its service's, else the default).
  v_duration := coalesce((req->>'duration_min')::integer, bbo_walk_in_minutes(v_duration));
  v_ends := at + make_interval(mins => v_duration);

  -- What the unit is occupied for: the visit itself, no buffers (bbo_occupied_block's checks).
  SELECT b.block_start, b.block_end INTO v_bstart, v_bend FROM bbo_occupied_block('{}', at, v_ends, 0, 0) b;

  -- Booked as every door books (bbo_book_unit): the unit locked, bookable, holds and time-off clear
  -- unless an override, the insert. The client token only backs up the entry lock: a second seat of
  -- this entry finds it assigned above. The walk-in is in the shop and sitting down now: checked in,
  -- no deposit, nothing to pay yet.
  SELECT * INTO bk FROM bbo_book_unit(at => at, p_store => v_store, p_unit => v_unit, p_starts => at, p_ends => v_ends,
    p_block => tstzrange(v_bstart, v_bend), p_status => 'checked_in', p_price => coalesce(v_price, 0), p_deposit => 0,
    p_currency => v_currency, p_party => e.party_size, p_source => 'walk_in', p_override => v_override,
    p_client_token => 'walk_in:' || e.id, p_created_by => req->>'created_by', p_service => e.service_id,
    p_customer => e.customer_id, p_guest_name => e.guest_name, p_guest_phone => e.guest_phone, p_checked_in_at => at);
  a := bk.booked;
  event_rows := bk.event_rows;

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
