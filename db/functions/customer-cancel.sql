-- The customer's own cancel (DELETE /bookings/my-appointments/{id}) as one statement: it checks what
-- only a customer is held to (their own booking, the store's cancellation window, a checked-in visit
-- is the shop's to cancel) and then cancels through bbo_appointment_status's 'cancel' branch
-- (appointment-status.sql). Owner: src/bookings/my-appointments/my-appointments.service.ts, through
-- src/platform/one-statement.ts.
--
-- req: {customer_id, appointment_id, reason} (reason trimmed, null when blank). Answers
-- {appointment_id, cancelled, noop}, as the merchant's cancel does.
-- The store's cancellation window, as it binds a customer: inside it (or after the start) only the
-- shop can change the booking; a window of 0 refuses only once started. p_verb and p_done name the
-- change in the refusal ('cancel', 'cancelled'; the booking page's move: 'move', 'moved').
CREATE OR REPLACE FUNCTION bbo_refuse_inside_window(a appointments, at timestamptz, p_verb text, p_done text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_window integer;
BEGIN
  SELECT s.cancellation_window_min INTO v_window FROM stores s WHERE s.id = a.store_id;
  IF at >= a.starts_at - make_interval(mins => v_window) THEN
    PERFORM bbo_refuse('CANCELLATION_WINDOW', CASE WHEN v_window > 0
      THEN format('Within %s minutes of the start the booking can only be %s by the shop', v_window, p_done)
      ELSE format('The booking has started; only the shop can %s it now', p_verb) END);
  END IF;
END $$;

CREATE OR REPLACE FUNCTION bbo_customer_cancel(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  a        appointments;
  body     jsonb;
BEGIN
  -- Someone else's appointment reads exactly like a missing one.
  a := bbo_lock_appointment((req->>'appointment_id')::uuid, NULL, (req->>'customer_id')::uuid);
  IF a.status IN ('pending_payment', 'confirmed') THEN
    PERFORM bbo_refuse_inside_window(a, at, 'cancel', 'cancelled');
  END IF;
  IF a.status = 'checked_in' THEN
    PERFORM bbo_refuse('INVALID_TRANSITION', 'A checked-in booking can only be cancelled by the shop');
  END IF;
  -- The merchant cancel's own branch, with no claim of its own: this call's claim is recorded below.
  body := bbo_appointment_status(NULL, actor, at, jsonb_build_object('store_id', a.store_id, 'appointment_id', a.id,
    'op', 'cancel', 'reason', req->'reason', 'cancelled_by', 'customer'))->'body';
  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at, body, '[]', '[]', actor));
END $$;
