-- The merchant's create (POST /bookings/appointments) as one statement, returning the response body.
-- Owner: src/bookings/booking-authority.ts (bookForMerchant), through src/platform/one-statement.ts.
--
-- req: {store_id, unit_id, service_id, customer_id, guest_name, guest_email, guest_phone, party_size,
--       price_pence, starts_at, ends_at, block_starts_at, block_ends_at, override, client_token,
--       created_by}; names already trimmed and the email lower-cased by the caller.
-- The no-double-booking guarantee is the exclusion constraint unit_occupancy_no_overlap, met through
-- the appointment's occupancy row (occupancy.sql): its violation (23P01) leaves this function as the
-- error it is and the caller maps it to SLOT_TAKEN.
CREATE OR REPLACE FUNCTION bbo_merchant_book(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_store      uuid := (req->>'store_id')::uuid;
  v_unit       uuid := (req->>'unit_id')::uuid;
  v_service    uuid := (req->>'service_id')::uuid;
  v_customer   uuid := (req->>'customer_id')::uuid;
  v_token      text := req->>'client_token';
  v_override   boolean := coalesce((req->>'override')::boolean, false);
  v_starts     timestamptz := (req->>'starts_at')::timestamptz;
  v_ends       timestamptz := (req->>'ends_at')::timestamptz;
  v_bstart     timestamptz;
  v_bend       timestamptz;
  v_currency   text;
  v_ptype      text;
  v_price      integer;
  v_before     integer := 0;
  v_after      integer := 0;
  v_active     boolean;
  v_pmin       integer;
  v_pmax       integer;
  v_party      integer := coalesce((req->>'party_size')::integer, 1);
  bk           record;
  a            appointments;
  v_reused     boolean;
  presented    jsonb;
  audit_rows   jsonb := '[]';
  event_rows   jsonb := '[]';
BEGIN
  -- The store, the service and the customer, each refusal in this order
  -- (test/bookings/appointments/create.test.ts pins the refusals).
  v_currency := bbo_store_currency(v_store);
  IF v_service IS NOT NULL THEN
    SELECT sv.price_type, sv.price_pence, sv.buffer_before_min, sv.buffer_after_min, sv.is_active, sv.party_min, sv.party_max
      INTO v_ptype, v_price, v_before, v_after, v_active, v_pmin, v_pmax
      FROM services sv WHERE sv.store_id = v_store AND sv.id = v_service;
    IF NOT FOUND THEN
      PERFORM bbo_refuse('NOT_FOUND', 'Service not found');
    END IF;
    IF NOT v_active THEN
      PERFORM bbo_refuse('SERVICE_ARCHIVED', 'The service is archived and cannot be booked');
    END IF;
    -- The party must fit the named service (the one rule, booking-terms.sql).
    PERFORM bbo_require_party_fits(v_party, v_pmin, v_pmax);
  END IF;
  PERFORM bbo_require_store_customer(v_store, v_customer);

  -- What the unit is occupied for, checked (bbo_occupied_block).
  SELECT b.block_start, b.block_end INTO v_bstart, v_bend FROM bbo_occupied_block(req, v_starts, v_ends, v_before, v_after) b;

  -- Booked as every door books (bbo_book_unit): the unit locked, a reused client token returned,
  -- bookable, holds and time-off clear unless an override, the insert. A merchant quick-add is
  -- confirmed on the spot; no money moves, so no deposit and nothing pending. The price is the one
  -- rule's (bbo_party_price) unless the merchant states price_pence, and is snapshotted: later
  -- changes to the service never reprice this appointment.
  SELECT * INTO bk FROM bbo_book_unit(at => at, p_store => v_store, p_unit => v_unit, p_starts => v_starts, p_ends => v_ends,
    p_block => tstzrange(v_bstart, v_bend), p_status => 'confirmed',
    p_price => coalesce((req->>'price_pence')::integer, bbo_party_price(v_ptype, v_price, v_party), 0), p_deposit => 0,
    p_currency => v_currency, p_party => v_party, p_source => 'merchant', p_override => v_override, p_client_token => v_token,
    p_created_by => req->>'created_by', p_service => v_service, p_customer => v_customer, p_guest_name => req->>'guest_name',
    p_guest_email => req->>'guest_email', p_guest_phone => req->>'guest_phone');
  a := bk.booked;
  v_reused := bk.reused;
  event_rows := bk.event_rows;

  presented := bbo_appointment_json(a);
  -- A reused client token is a no-op repeat: no relationship touch, no audit row, no event.
  IF NOT v_reused THEN
    IF v_customer IS NOT NULL THEN
      PERFORM bbo_touch_store_customer(v_store, v_customer, at);
    END IF;
    audit_rows := jsonb_build_array(bbo_audit_row(actor, at, 'appointment.created', 'appointment', a.id::text,
      jsonb_build_object('unit_id', a.unit_id, 'starts_at', bbo_iso(a.starts_at), 'is_override', a.is_override)));
    event_rows := event_rows || jsonb_build_array(bbo_event(v_store, 'appointment.created', at, presented));
  END IF;
  RETURN jsonb_build_object('replayed', false,
    'body', bbo_write_finish(claim, at, jsonb_build_object('appointment', presented, 'reused', v_reused), audit_rows, event_rows, actor));
END $$;
