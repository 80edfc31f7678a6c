-- The customer's checkout as one-statement writes (docs/architecture.md, "One-statement writes"):
-- POST /bookings/holds/{id}/confirm, ONE call of bbo_customer_confirm.
-- Owner: src/bookings/booking-authority.ts (confirmForCustomer), through src/platform/one-statement.ts.
--
-- "Offered" is decided by bbo_offered_slots (offered-slots.sql), the function the availability search
-- runs: a hold is placed only where the search would offer the start, and a confirm books only if
-- the start is still offered. The no-double-booking guarantee is the exclusion constraint
-- unit_occupancy_no_overlap (occupancy.sql keeps its rows): its violation (23P01) leaves these
-- functions as the error it is and the caller maps it to SLOT_TAKEN.

-- A hold that can still become a booking (confirm, and the booking page's move): not lapsed, not released.
CREATE OR REPLACE FUNCTION bbo_refuse_unusable_hold(h holds, at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF h.release_reason = 'expired' OR (h.released_at IS NULL AND bbo_hold_lapsed(h.expires_at, at)) THEN
    PERFORM bbo_refuse('HOLD_EXPIRED', 'The hold lapsed before it was confirmed; search again and hold a new slot');
  END IF;
  IF h.released_at IS NOT NULL THEN
    PERFORM bbo_refuse('HOLD_RELEASED', 'The hold was released; search again and hold a new slot');
  END IF;
END $$;

-- The held start, asked of the availability function again on the hold's unit, with notice and
-- horizon counted from when the hold was placed (the merchant may have changed hours or added
-- time-off since); refused when no longer offered. Called once the hold has ended: its own time is
-- then free only inside this statement, under the unit lock.
CREATE OR REPLACE FUNCTION bbo_held_slot(h holds, v_customer uuid, at timestamptz)
RETURNS TABLE (starts_at timestamptz, ends_at timestamptz, block_starts_at timestamptz, block_ends_at timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  slot record;
BEGIN
  SELECT * INTO slot FROM bbo_offered_slots(h.store_id, h.service_id, h.variant_id, h.addon_ids, h.unit_id, h.party_size,
    NULL, NULL, h.starts_at, true, v_customer, h.created_at, at) o LIMIT 1;
  IF NOT FOUND OR NOT (h.unit_id::text = ANY (string_to_array(slot.unit_ids, ','))) THEN
    PERFORM bbo_refuse_not_offered();
  END IF;
  RETURN QUERY SELECT slot.starts_at, slot.ends_at, slot.block_starts_at, slot.block_ends_at;
END $$;

-- A confirm's answer when the hold's appointment already exists (a retried confirm): that appointment,
-- reused, with nothing new to audit or report.
CREATE OR REPLACE FUNCTION bbo_confirm_reused(claim jsonb, actor jsonb, at timestamptz, a appointments) RETURNS jsonb
LANGUAGE sql AS $$
  SELECT jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
    jsonb_build_object('appointment', bbo_appointment_json(a), 'reused', true), '[]', '[]', actor))
$$;

-- POST /bookings/holds/{id}/confirm. req: {hold_id, customer_id, guest_note}; the note trimmed by
-- the caller, null when empty. Returns {appointment, reused}.
CREATE OR REPLACE FUNCTION bbo_customer_confirm(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_customer uuid := (req->>'customer_id')::uuid;
  h          holds;
  t          record;
  slot       record;
  v_price    integer;
  v_deposit  integer;
  v_bstart   timestamptz;
  v_bend     timestamptz;
  bk         record;
  a          appointments;
  presented  jsonb;
BEGIN
  h := bbo_own_hold((req->>'hold_id')::uuid, v_customer);

  -- A retried confirm (the first answer was lost) returns what the first one booked.
  IF h.appointment_id IS NOT NULL THEN
    SELECT * INTO a FROM appointments x WHERE x.store_id = h.store_id AND x.id = h.appointment_id;
    IF FOUND THEN
      RETURN bbo_confirm_reused(claim, actor, at, a);
    END IF;
  END IF;
  PERFORM bbo_refuse_unusable_hold(h, at);

  SELECT * INTO t FROM bbo_booking_terms(h.store_id, h.service_id, h.variant_id, h.addon_ids, h.unit_id, v_customer);
  IF NOT t.store_found OR NOT t.service_found THEN
    PERFORM bbo_refuse('SLOT_UNAVAILABLE', 'The service is no longer offered');
  END IF;
  -- The one price rule (bbo_party_price), snapshotted: later changes to the service never reprice
  -- this appointment. A deposit is due before the booking is firm; no money moves here.
  v_price := bbo_party_price(t.price_type, t.price_pence, h.party_size);
  v_deposit := bbo_deposit_of(t.deposit_policy, v_price);

  -- End the hold first (its time is then free only inside this statement, under the unit lock),
  -- then ask the availability function again for this start on this unit, with notice and horizon
  -- counted from when the hold was placed (the merchant may have changed hours or added time-off).
  UPDATE holds x SET released_at = at, release_reason = 'confirmed' WHERE x.id = h.id;
  SELECT * INTO slot FROM bbo_held_slot(h, v_customer, at);

  -- Booked as every door books (bbo_book_unit): the unit (locked already by bbo_own_hold) bookable,
  -- holds and time-off clear, then the insert, with the hold as its client token so nothing can book
  -- this hold twice.
  SELECT b.block_start, b.block_end INTO v_bstart, v_bend
    FROM bbo_occupied_block(jsonb_build_object('block_starts_at', slot.block_starts_at, 'block_ends_at', slot.block_ends_at),
                            slot.starts_at, slot.ends_at, 0, 0) b;
  SELECT * INTO bk FROM bbo_book_unit(at => at, p_store => h.store_id, p_unit => h.unit_id, p_starts => slot.starts_at,
    p_ends => slot.ends_at, p_block => tstzrange(v_bstart, v_bend),
    p_status => CASE WHEN v_deposit > 0 THEN 'pending_payment' ELSE 'confirmed' END, p_price => v_price, p_deposit => v_deposit,
    p_currency => t.currency, p_party => h.party_size, p_source => 'online', p_override => false, p_client_token => 'hold:' || h.id,
    p_created_by => 'customer:' || v_customer, p_service => h.service_id, p_customer => v_customer,
    p_guest_note => req->>'guest_note', p_variant => h.variant_id, p_addons => h.addon_ids);
  a := bk.booked;
  IF bk.reused THEN
    -- This hold's appointment exists without the hold knowing it (the client-token reuse of
    -- bbo_book_unit): link it and return it, as a retried confirm returns it; nothing new to report.
    UPDATE holds x SET appointment_id = a.id WHERE x.id = h.id;
    RETURN bbo_confirm_reused(claim, actor, at, a);
  END IF;
  UPDATE holds x SET appointment_id = a.id WHERE x.id = h.id RETURNING * INTO h;
  PERFORM bbo_touch_store_customer(h.store_id, v_customer, at);

  presented := bbo_appointment_json(a);
  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
    jsonb_build_object('appointment', presented, 'reused', false),
    jsonb_build_array(bbo_audit_row(actor, at, 'appointment.created', 'appointment', a.id::text,
      jsonb_build_object('store_id', h.store_id, 'hold_id', h.id, 'source', 'online', 'status', a.status))),
    bk.event_rows || jsonb_build_array(bbo_event(h.store_id, 'hold.released', at, bbo_hold_json(h)),
                                    bbo_event(h.store_id, 'appointment.created', at, presented)),
    actor));
END $$;
