-- Settle (POST /bookings/appointments/settle) as one statement: the spec's six rules, in order.
-- Owner: src/bookings/appointments/settle.service.ts, through src/platform/one-statement.ts.
--
-- req: {store_id, appointment_id, method: 'cash' | 'card_machine', user_id, staff_name}
-- The amount is derived here (price - deposit actually paid - already settled, never negative; 'paid'
-- owes nothing: outstandingOf in appointment-money.ts), never sent by the client.
CREATE OR REPLACE FUNCTION bbo_settle(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_store  uuid := (req->>'store_id')::uuid;
  v_user   text := req->>'user_id';
  v_method text := req->>'method';
  a        appointments;
  s        appointments;
  v_owed   integer;
  v_last   record;
  base     jsonb;
BEGIN
  -- Rule 5: the row lock serialises colleagues settling at once; the second reads the first's result.
  a := bbo_lock_appointment((req->>'appointment_id')::uuid, v_store);
  -- Rule 6: a no-show is never settled here.
  IF a.status = 'no_show' THEN
    PERFORM bbo_refuse('NO_SHOW_NOT_SETTLEABLE', 'A no-show is never settled here');
  END IF;
  IF a.status NOT IN ('confirmed', 'checked_in', 'completed') THEN
    PERFORM bbo_refuse('INVALID_TRANSITION', format('A %s appointment cannot be settled', a.status));
  END IF;
  base := jsonb_build_object('appointment_id', a.id, 'currency', a.currency, 'outstanding_pence', 0, 'collected_pence', 0);
  v_owed := CASE WHEN a.payment_status = 'paid' THEN 0
                 ELSE greatest(0, a.price_pence - CASE WHEN a.payment_status = 'deposit_paid' THEN a.deposit_pence ELSE 0 END - a.settled_pence) END;

  IF v_owed = 0 THEN
    -- Rule 4: nothing outstanding is the no-op gate, never a second record.
    SELECT st.method, st.settled_at, st.settled_by_user_id, st.settled_by_name INTO v_last FROM settlements st
     WHERE st.store_id = v_store AND st.appointment_id = a.id ORDER BY st.settled_at DESC, st.id DESC LIMIT 1;
    IF NOT FOUND THEN
      -- Nothing was ever owed here (price 0, paid online, or the deposit covered it).
      RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at, base || jsonb_build_object(
        'outcome', 'nothing_owed', 'status', a.status, 'payment_status', a.payment_status, 'settled_total_pence', a.settled_pence,
        'method', NULL, 'settled_at', NULL, 'settled_by_you', false, 'settled_by_name', NULL), '[]', '[]', actor));
    END IF;
    RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at, base || jsonb_build_object(
      'outcome', 'already_settled', 'status', a.status, 'payment_status', a.payment_status, 'settled_total_pence', a.settled_pence,
      'method', v_last.method, 'settled_at', bbo_iso(v_last.settled_at),
      'settled_by_you', v_user IS NOT NULL AND v_last.settled_by_user_id IS NOT DISTINCT FROM v_user, 'settled_by_name', v_last.settled_by_name),
      '[]', '[]', actor));
  END IF;

  -- Rules 1-3: the whole outstanding amount is collected, so the booking is paid and completed, and
  -- settled_pence moves with the settlements row in the same transaction.
  INSERT INTO settlements (store_id, appointment_id, amount_pence, currency, method, settled_by_user_id, settled_by_name, settled_at)
  VALUES (v_store, a.id, v_owed, a.currency, v_method, v_user, req->>'staff_name', at);
  UPDATE appointments x
     SET settled_pence = x.settled_pence + v_owed, payment_status = 'paid', status = 'completed',
         completed_at = coalesce(x.completed_at, at), updated_at = at
   WHERE x.store_id = v_store AND x.id = a.id
  RETURNING * INTO s;

  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at, base || jsonb_build_object(
      'outcome', 'settled', 'status', s.status, 'payment_status', s.payment_status, 'collected_pence', v_owed,
      'settled_total_pence', s.settled_pence, 'method', v_method, 'settled_at', bbo_iso(at), 'settled_by_you', true,
      'settled_by_name', req->>'staff_name'),
    jsonb_build_array(bbo_audit_row(actor, at, 'appointment.settled', 'appointment', a.id::text,
      jsonb_build_object('amount_pence', v_owed, 'method', v_method, 'from', a.status, 'to', s.status))),
    jsonb_build_array(bbo_event(v_store, 'appointment.settled', at,
      bbo_appointment_json(s) || jsonb_build_object(
        'settlement', jsonb_build_object('amount_pence', v_owed, 'currency', a.currency, 'method', v_method,
          'settled_at', bbo_iso(at), 'settled_by_name', req->>'staff_name'),
        'previous', jsonb_build_object('status', a.status, 'payment_status', a.payment_status)))), actor));
END $$;
