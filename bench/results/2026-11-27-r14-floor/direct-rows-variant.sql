-- The merchant's create (POST /bookings/appointments) as one statement, returning the response body.
-- Owner: src/bookings/booking-authority.ts (bookForMerchant), through src/platform/one-statement.ts.
--
-- req: {store_id, unit_id, service_id, customer_id, guest_name, guest_email, guest_phone, party_size,
--       price_pence, starts_at, ends_at, block_starts_at, block_ends_at, override, client_token,
--       created_by}; names already trimmed and the email lower-cased by the caller.
-- The no-double-booking guarantee is the exclusion constraint unit_occupancy_no_overlap, met through
-- the appointment's occupancy row (occupancy.sql): its violation (23P01) leaves this function as the
-- error it is and the caller maps it to SLOT_TAKEN.
CREATE OR REPLACE FUNCTION bbo_merchant_book_v1(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  stored       jsonb;
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
  v_tz         text;
  v_body       jsonb;
  v_price      integer;
  v_before     integer := 0;
  v_after      integer := 0;
  v_active     boolean;
  v_pmin       integer;
  v_pmax       integer;
  v_party      integer := coalesce((req->>'party_size')::integer, 1);
  v_erased     boolean;
  v_unit_ok    boolean;
  a            appointments;
  v_reused     boolean := false;
  presented    jsonb;
  audit_rows   jsonb := '[]';
  event_rows   jsonb := '[]';
BEGIN
  stored := bbo_idempotency_claim(claim, at);
  IF stored IS NOT NULL THEN
    RETURN jsonb_build_object('replayed', true, 'body', stored);
  END IF;

  -- The store, the service and the customer, each refusal in this order
  -- (test/bookings/appointments/create.test.ts pins the refusals).
  SELECT st.currency, st.timezone INTO v_currency, v_tz FROM stores st WHERE st.id = v_store;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Store not found');
  END IF;
  IF v_service IS NOT NULL THEN
    SELECT sv.price_pence, sv.buffer_before_min, sv.buffer_after_min, sv.is_active, sv.party_min, sv.party_max
      INTO v_price, v_before, v_after, v_active, v_pmin, v_pmax
      FROM services sv WHERE sv.store_id = v_store AND sv.id = v_service;
    IF NOT FOUND THEN
      PERFORM bbo_refuse('NOT_FOUND', 'Service not found');
    END IF;
    IF NOT v_active THEN
      PERFORM bbo_refuse('SERVICE_ARCHIVED', 'The service is archived and cannot be booked');
    END IF;
    -- The party must fit the named service (assertPartyFits in src/bookings/services/party-size.ts).
    IF v_party < v_pmin OR v_party > v_pmax THEN
      PERFORM bbo_refuse('PARTY_SIZE_OUT_OF_RANGE', format('party_size %s does not fit this service, which takes parties of %s', v_party,
        CASE WHEN v_pmin = v_pmax THEN v_pmin::text ELSE v_pmin || ' to ' || v_pmax END));
    END IF;
  END IF;
  IF v_customer IS NOT NULL THEN
    -- "One of this store's customers" (storeCustomerSql): a relationship row is required.
    SELECT c.erased_at IS NOT NULL INTO v_erased
      FROM store_customers sc JOIN customers c ON c.id = sc.customer_id
     WHERE sc.store_id = v_store AND sc.customer_id = v_customer;
    IF NOT FOUND THEN
      PERFORM bbo_refuse('NOT_FOUND', 'Customer not found');
    END IF;
    IF v_erased THEN
      PERFORM bbo_refuse('CUSTOMER_ERASED', 'The customer asked to be deleted and cannot be booked');
    END IF;
  END IF;

  -- What the unit is occupied for, checked (bbo_occupied_block).
  SELECT b.block_start, b.block_end INTO v_bstart, v_bend FROM bbo_occupied_block(req, v_starts, v_ends, v_before, v_after) b;

  -- Lock the unit (lockUnits): serialises writers per unit, so holds and time-off (other tables)
  -- are checked without a race, and concurrent inserts on one unit cannot deadlock in the constraint.
  SELECT u.is_active AND u.bookable INTO v_unit_ok FROM units u WHERE u.store_id = v_store AND u.id = v_unit FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Unit not found');
  END IF;
  -- A retry with the same client token returns the first appointment, whatever else changed since.
  IF v_token IS NOT NULL THEN
    SELECT * INTO a FROM appointments x WHERE x.store_id = v_store AND x.client_token = v_token;
    v_reused := FOUND;
  END IF;

  IF NOT v_reused THEN
    IF NOT v_unit_ok THEN
      PERFORM bbo_refuse('UNIT_NOT_BOOKABLE', 'The unit is inactive or not bookable');
    END IF;
    IF NOT v_override THEN
      -- Holds and time-off refuse, expired holds in the way are released (bbo_clear_block).
      event_rows := bbo_clear_block(v_store, v_unit, v_bstart, v_bend, at);
    END IF;
    -- A merchant quick-add is confirmed on the spot; no money moves, so no deposit and nothing pending.
    -- The price is snapshotted: later changes to the service never reprice this appointment.
    INSERT INTO appointments (store_id, unit_id, service_id, customer_id, guest_name, guest_email, guest_phone,
      starts_at, ends_at, block, status, payment_status, price_pence, deposit_pence, currency, party_size, children,
      high_chairs, source, is_override, preferred_area_id, client_token, created_by, checked_in_at, created_at, updated_at)
    VALUES (v_store, v_unit, v_service, v_customer, req->>'guest_name', req->>'guest_email', req->>'guest_phone',
      v_starts, v_ends, tstzrange(v_bstart, v_bend), 'confirmed', 'none', coalesce((req->>'price_pence')::integer, v_price, 0), 0,
      v_currency, v_party, 0, 0, 'merchant', v_override, NULL, v_token, req->>'created_by', NULL, at, at)
    ON CONFLICT (store_id, client_token) WHERE client_token IS NOT NULL DO NOTHING
    RETURNING * INTO a;
    IF NOT FOUND THEN
      -- Lost a same-token race to a transaction that committed meanwhile (this statement sees it:
      -- fresh snapshot): return its appointment.
      SELECT * INTO a FROM appointments x WHERE x.store_id = v_store AND x.client_token = v_token;
      IF NOT FOUND THEN
        PERFORM bbo_refuse('CONFLICT', 'The booking collided with a concurrent request; retry it');
      END IF;
      v_reused := true;
    END IF;
  END IF;

  presented := bbo_appointment_json(a);
  v_body := jsonb_build_object('appointment', presented, 'reused', v_reused);
  IF jsonb_array_length(event_rows) > 0 THEN
    PERFORM bbo_write_finish(NULL, at, v_body, '[]', event_rows, actor);
  END IF;
  IF NOT v_reused THEN
    IF v_customer IS NOT NULL THEN
      INSERT INTO store_customers (store_id, customer_id, first_seen_at, last_seen_at, updated_at)
      VALUES (v_store, v_customer, at, at, at)
      ON CONFLICT (store_id, customer_id)
      DO UPDATE SET last_seen_at = GREATEST(store_customers.last_seen_at, EXCLUDED.last_seen_at);
    END IF;
    INSERT INTO audit_log (store_id, actor_kind, actor_id, actor_name, action, entity, entity_id, details, request_id, created_at)
    VALUES ((actor->>'store_id')::uuid, actor->>'actor_kind', actor->>'actor_id', actor->>'actor_name', 'appointment.created', 'appointment', a.id::text,
      jsonb_build_object('unit_id', a.unit_id, 'starts_at', bbo_iso(a.starts_at), 'is_override', a.is_override), actor->>'request_id', at);
    IF NOT coalesce((actor->>'events_off')::boolean, false) THEN
      INSERT INTO events (store_id, type, occurred_at, occurred_at_local, timezone, data)
      VALUES (v_store, 'appointment.created', at, to_char(at AT TIME ZONE v_tz, 'YYYY-MM-DD"T"HH24:MI:SS'), v_tz,
        presented || jsonb_build_object('local_starts_at', to_char(a.starts_at AT TIME ZONE v_tz, 'YYYY-MM-DD"T"HH24:MI:SS'),
                                        'local_ends_at', to_char(a.ends_at AT TIME ZONE v_tz, 'YYYY-MM-DD"T"HH24:MI:SS')));
    END IF;
  END IF;
  IF claim IS NOT NULL THEN
    INSERT INTO idempotency_records (principal, method, path, key, request_hash, status_code, body, created_at, expires_at)
    VALUES (claim->>'principal', claim->>'method', claim->>'path', claim->>'key', claim->>'request_hash', 200, v_body, at, at + interval '24 hours');
  END IF;
  RETURN jsonb_build_object('replayed', false, 'body', v_body);
END $$;
