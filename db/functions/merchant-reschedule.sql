-- The merchant's reschedule (POST /bookings/appointments/reschedule) as one statement.
-- Owner: src/bookings/booking-authority.ts (moveForMerchant), through src/platform/one-statement.ts.
--
-- req: {store_id, appointment_id, unit_id, starts_at, ends_at, block_starts_at, block_ends_at, override}
-- One UPDATE replaces the block, so the new slot is secured and the old released atomically; if the
-- new slot is taken (23P01 from unit_occupancy_no_overlap, when the occupancy trigger moves the
-- appointment's row; mapped to SLOT_TAKEN by the caller) the statement fails and the appointment is
-- untouched.
CREATE OR REPLACE FUNCTION bbo_merchant_reschedule(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_store    uuid := (req->>'store_id')::uuid;
  v_unit     uuid := (req->>'unit_id')::uuid;
  v_override boolean := coalesce((req->>'override')::boolean, false);
  v_starts   timestamptz := (req->>'starts_at')::timestamptz;
  v_ends     timestamptz := (req->>'ends_at')::timestamptz;
  v_bstart   timestamptz;
  v_bend     timestamptz;
  v_window   integer;
  v_before   integer;
  v_after    integer;
  v_locked   integer;
  v_unit_ok  boolean;
  a          appointments;
  m          appointments;
  event_rows jsonb := '[]';
BEGIN
  -- Every state change on an appointment starts with its row lock.
  a := bbo_lock_appointment((req->>'appointment_id')::uuid, v_store);
  -- Read after the lock: the target unit (no lock yet), the store's window, the service's buffers.
  PERFORM 1 FROM units u WHERE u.store_id = v_store AND u.id = v_unit;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Unit not found');
  END IF;
  IF a.status IN ('cancelled', 'completed', 'no_show') THEN
    PERFORM bbo_refuse('INVALID_TRANSITION', format('A %s appointment cannot be moved', a.status));
  END IF;
  SELECT st.cancellation_window_min INTO v_window FROM stores st WHERE st.id = v_store;
  -- The window guards the CURRENT start: within it (or past it) a move needs override; 0 never refuses.
  IF NOT v_override AND v_window > 0 AND at >= a.starts_at - make_interval(mins => v_window) THEN
    PERFORM bbo_refuse('CANCELLATION_WINDOW', format('Within %s minutes of the start a move needs override', v_window));
  END IF;
  IF a.service_id IS NOT NULL THEN
    SELECT sv.buffer_before_min, sv.buffer_after_min INTO v_before, v_after FROM services sv WHERE sv.store_id = v_store AND sv.id = a.service_id;
  END IF;

  -- What the unit is occupied for, checked (bbo_occupied_block).
  SELECT b.block_start, b.block_end INTO v_bstart, v_bend FROM bbo_occupied_block(req, v_starts, v_ends, v_before, v_after) b;

  -- Both units locked in one fixed order (by id), so two movers never wait on each other in a cycle.
  SELECT count(*), bool_and(u.is_active AND u.bookable) FILTER (WHERE u.id = v_unit) INTO v_locked, v_unit_ok
    FROM (SELECT y.id, y.is_active, y.bookable FROM units y
           WHERE y.store_id = v_store AND y.id IN (a.unit_id, v_unit) ORDER BY y.id FOR UPDATE) u;
  IF v_locked <> (CASE WHEN a.unit_id = v_unit THEN 1 ELSE 2 END) THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Unit not found');
  END IF;
  -- The target's time made ready as every booking makes it (bbo_claim_unit_time, book-unit.sql):
  -- bookable, then holds and time-off refuse unless an override, expired holds in the way released.
  event_rows := bbo_claim_unit_time(v_store, v_unit, v_unit_ok, tstzrange(v_bstart, v_bend), v_override, at);

  UPDATE appointments x
     SET unit_id = v_unit, starts_at = v_starts, ends_at = v_ends, block = tstzrange(v_bstart, v_bend),
         is_override = v_override, updated_at = at
   WHERE x.store_id = v_store AND x.id = a.id
  RETURNING * INTO m;

  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
    jsonb_build_object('appointment_id', m.id, 'unit_id', m.unit_id, 'starts_at', bbo_iso(m.starts_at), 'ends_at', bbo_iso(m.ends_at),
      'moved_in_place', m.unit_id = a.unit_id),
    jsonb_build_array(bbo_audit_row(actor, at, 'appointment.rescheduled', 'appointment', a.id::text, jsonb_build_object(
      'from', jsonb_build_object('unit_id', a.unit_id, 'starts_at', bbo_iso(a.starts_at), 'ends_at', bbo_iso(a.ends_at)),
      'to', jsonb_build_object('unit_id', m.unit_id, 'starts_at', bbo_iso(m.starts_at), 'ends_at', bbo_iso(m.ends_at)),
      'override', v_override))),
    -- The moved appointment, and the unit and times it had before.
    event_rows || jsonb_build_array(bbo_event(v_store, 'appointment.rescheduled', at,
      bbo_appointment_json(m) || jsonb_build_object('previous',
        jsonb_build_object('unit_id', a.unit_id, 'starts_at', bbo_iso(a.starts_at), 'ends_at', bbo_iso(a.ends_at))))), actor));
END $$;
