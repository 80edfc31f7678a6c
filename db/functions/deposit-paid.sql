-- Recording a deposit as paid (POST /bookings/appointments/deposit-paid and the operator's
-- /admin/v1/stores/{storeId}/appointments/{appointmentId}/deposit-paid) as one statement, like the
-- other status changes: the row lock, the repeat and refusal checks, the change
-- (pending_payment -> confirmed, payment_status deposit_paid), the audit row, the event and the
-- idempotency record. Owner: src/bookings/deposits/deposits.service.ts, through
-- src/platform/one-statement.ts.
--
-- req: {store_id, appointment_id}. Answers {appointment_id, status, payment_status, noop}.
CREATE OR REPLACE FUNCTION bbo_deposit_paid(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  a      appointments;
  b      appointments;
  body   jsonb;
BEGIN
  a := bbo_lock_appointment((req->>'appointment_id')::uuid, (req->>'store_id')::uuid);
  -- A repeat (or a payment recorded by a colleague meanwhile) answers what is there.
  IF a.payment_status = 'deposit_paid' THEN
    body := jsonb_build_object('appointment_id', a.id, 'status', a.status, 'payment_status', a.payment_status, 'noop', true);
    RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at, body, '[]', '[]', actor));
  END IF;
  IF a.status <> 'pending_payment' THEN
    PERFORM bbo_refuse('NOT_PENDING_PAYMENT', format('A %s appointment has no deposit waiting to be paid', a.status));
  END IF;

  -- The slot stays held: the occupied block follows the status, and confirmed occupies as pending did.
  UPDATE appointments x SET status = 'confirmed', payment_status = 'deposit_paid', updated_at = at
   WHERE x.store_id = a.store_id AND x.id = a.id
  RETURNING * INTO b;

  body := jsonb_build_object('appointment_id', b.id, 'status', b.status, 'payment_status', b.payment_status, 'noop', false);
  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at, body,
    jsonb_build_array(bbo_audit_row(actor, at, 'appointment.deposit_paid', 'appointment', a.id::text,
      jsonb_build_object('store_id', a.store_id, 'deposit_pence', a.deposit_pence))),
    jsonb_build_array(bbo_event(a.store_id, 'appointment.deposit_paid', at, bbo_appointment_json(b))), actor));
END $$;
