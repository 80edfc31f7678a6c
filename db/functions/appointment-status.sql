-- The status changes (check-in, complete, no-show, cancel) as one statement each.
-- Owner: src/bookings/appointments/appointment-status.service.ts, through src/platform/one-statement.ts.
-- The customer's own cancel (customer-cancel.sql) cancels through the 'cancel' branch here, so the
-- status table, the audit row and the event have one definition.
--
-- req: {store_id, appointment_id, op: 'check_in' | 'complete' | 'no_show' | 'cancel', reason,
-- cancelled_by} (reason already trimmed, null when blank, cancel only; cancelled_by 'merchant' when
-- absent, reported by the event). A customer's audit row names the store in its details.
-- Answers: {appointment_id, status, noop} for the first three, {appointment_id, cancelled, noop} for
-- cancel. A repeat (already in the target state) changes nothing, writes no audit row and no event.
CREATE OR REPLACE FUNCTION bbo_appointment_status(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_op    text := req->>'op';
  v_store uuid := (req->>'store_id')::uuid;
  a       appointments;
  b       appointments;
  v_to    text;
  v_what  text;
  details jsonb := '{}';
  body    jsonb;
  v_by    text := coalesce(req->>'cancelled_by', 'merchant');
BEGIN
  -- The row lock first: of two colleagues pressing the same button, one changes the state and the
  -- other waits here, then reads the result and answers it as a noop repeat.
  a := bbo_lock_appointment((req->>'appointment_id')::uuid, v_store);

  -- The spec's status table. Each branch either answers a repeat (RETURN below with noop), refuses,
  -- or names the target status.
  CASE v_op
    WHEN 'check_in' THEN
      v_what := 'checked in';
      IF a.status = 'checked_in' THEN
        body := jsonb_build_object('appointment_id', a.id, 'status', a.status, 'noop', true);
      ELSIF a.status = 'confirmed' THEN
        v_to := 'checked_in';
      END IF;
    WHEN 'complete' THEN
      v_what := 'completed';
      IF a.status = 'completed' THEN
        body := jsonb_build_object('appointment_id', a.id, 'status', a.status, 'noop', true);
      ELSIF a.status IN ('confirmed', 'checked_in') THEN
        v_to := 'completed';
      END IF;
    WHEN 'no_show' THEN
      v_what := 'marked a no-show';
      IF a.status = 'no_show' THEN
        body := jsonb_build_object('appointment_id', a.id, 'status', a.status, 'noop', true);
      ELSIF a.status = 'checked_in' THEN
        PERFORM bbo_refuse('ALREADY_CHECKED_IN', 'A checked-in guest showed up and cannot be a no-show');
      ELSIF a.status = 'confirmed' THEN
        -- Due once its start has passed: a guest is missing from the moment they are late.
        IF at < a.starts_at THEN
          PERFORM bbo_refuse('NOT_YET_DUE', 'The appointment has not started yet, so it cannot be a no-show');
        END IF;
        v_to := 'no_show';
      END IF;
    WHEN 'cancel' THEN
      v_what := 'cancelled';
      -- Repeats change nothing: the first cancellation's instant and reason stand.
      IF a.status = 'cancelled' THEN
        body := jsonb_build_object('appointment_id', a.id, 'cancelled', true, 'noop', true);
      ELSIF a.status = 'completed' THEN
        body := jsonb_build_object('appointment_id', a.id, 'cancelled', false, 'noop', true);
      ELSIF a.status IN ('pending_payment', 'confirmed', 'checked_in') THEN
        v_to := 'cancelled';
        -- The reason stays on the row; the audit notes only that one was given (it may be a private note).
        -- A customer's audit row names the store in its details (a merchant's has it from the token).
        details := jsonb_build_object('reason_given', req->>'reason' IS NOT NULL)
          || CASE WHEN v_by = 'customer' THEN jsonb_build_object('store_id', a.store_id) ELSE '{}'::jsonb END;
      END IF;
    ELSE
      RAISE EXCEPTION 'bbo_appointment_status: unknown op %', v_op;
  END CASE;

  IF body IS NOT NULL THEN
    RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at, body, '[]', '[]', actor));
  END IF;
  IF v_to IS NULL THEN
    PERFORM bbo_refuse('INVALID_TRANSITION', format('A %s appointment cannot be %s', a.status, v_what));
  END IF;

  -- Cancelled and no-show rows release their block by status (the exclusion constraint ignores
  -- them); rows are kept, never deleted.
  UPDATE appointments x
     SET status = v_to,
         checked_in_at = CASE WHEN v_to = 'checked_in' THEN at ELSE x.checked_in_at END,
         completed_at = CASE WHEN v_to = 'completed' THEN at ELSE x.completed_at END,
         no_show_at = CASE WHEN v_to = 'no_show' THEN at ELSE x.no_show_at END,
         cancelled_at = CASE WHEN v_to = 'cancelled' THEN at ELSE x.cancelled_at END,
         cancel_reason = CASE WHEN v_to = 'cancelled' THEN req->>'reason' ELSE x.cancel_reason END,
         cancelled_by = CASE WHEN v_to = 'cancelled' THEN v_by ELSE x.cancelled_by END,
         updated_at = at
   WHERE x.store_id = a.store_id AND x.id = a.id
  RETURNING * INTO b;

  body := CASE WHEN v_op = 'cancel' THEN jsonb_build_object('appointment_id', a.id, 'cancelled', true, 'noop', false)
               ELSE jsonb_build_object('appointment_id', a.id, 'status', v_to, 'noop', false) END;
  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at, body,
    jsonb_build_array(bbo_audit_row(actor, at, 'appointment.' || v_to, 'appointment', a.id::text,
      jsonb_build_object('from', a.status, 'to', v_to) || details)),
    -- The event's data is the appointment after the change, and the status it had before; a
    -- cancellation also says who cancelled (the customer's own cancel says 'customer').
    jsonb_build_array(bbo_event(a.store_id, 'appointment.' || v_to, at,
      bbo_appointment_json(b) || jsonb_build_object('previous', jsonb_build_object('status', a.status))
        || CASE WHEN v_to = 'cancelled' THEN jsonb_build_object('cancelled_by', v_by) ELSE '{}'::jsonb END)), actor));
END $$;

-- An appointment locked for a state change (every state change on an appointment starts with its
-- row lock): of two colleagues acting at once, one changes it and the other waits here, then reads
-- the result. Filtered on the store and on the customer when given, so another store's or another
-- customer's appointment reads exactly like a missing one. Called by every appointment write: status
-- changes here, settle, deposit paid, the merchant's and the page's move, the customer's cancel.
CREATE OR REPLACE FUNCTION bbo_lock_appointment(p_id uuid, p_store uuid, p_customer uuid DEFAULT NULL) RETURNS appointments
LANGUAGE plpgsql AS $$
DECLARE
  a appointments;
BEGIN
  SELECT * INTO a FROM appointments x
   WHERE x.id = p_id AND (p_store IS NULL OR x.store_id = p_store) AND (p_customer IS NULL OR x.customer_id = p_customer)
     FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Appointment not found');
  END IF;
  RETURN a;
END $$;
