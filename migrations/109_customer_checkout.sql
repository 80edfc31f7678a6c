-- The customer's checkout as one-statement writes (docs/architecture.md, "One-statement writes"):
-- POST /bookings/holds, POST /holds/{id}/confirm and DELETE /holds/{id} each are ONE call of a
-- function here, in the implicit transaction of that statement. They do what the TypeScript did
-- over 11, 18 and 7 round trips, in the same order with the same refusals. Called only from
-- src/bookings/booking-authority.ts (holdForCustomer, confirmForCustomer, releaseForCustomer),
-- through src/platform/one-statement.ts.
--
-- "Offered" is decided by bbo_offered_slots (migration 108), the function the availability search
-- runs: a hold is placed only where the search would offer the start, and a confirm books only if
-- the start is still offered. The no-double-booking guarantee stays the exclusion constraints
-- (appointments_no_overlap, unit_occupancy_no_overlap): their violation (23P01) leaves these
-- functions as the error it is and the caller maps it to SLOT_TAKEN.

-- What an online question needs before the slot statement runs, in one row (always exactly one):
-- the store and its online settings, the service with the variant and add-ons asked for (told
-- duration and price, add-ons included; the variant's price wins), the unit asked for, and the
-- customer's standing. Each is filtered on the store, so another store's record reads as missing.
-- The search's bookingTerms (src/bookings/availability/booking-terms.repository.ts) reads it too.
CREATE FUNCTION bbo_booking_terms(p_store uuid, p_service uuid, p_variant uuid, p_addons uuid[], p_unit uuid, p_customer uuid)
RETURNS TABLE (store_found boolean, timezone text, currency text, hold_minutes integer, cancellation_window_min integer,
               min_notice_min integer, booking_horizon_days integer,
               service_found boolean, is_active boolean, online_visible boolean, party_min integer, party_max integer,
               price_type text, deposit_policy jsonb, duration_min integer, price_pence integer,
               variant_found boolean, addons_found boolean, unit_in_store boolean,
               customer_found boolean, customer_erased boolean, customer_blocked boolean)
LANGUAGE sql STABLE AS $$
  SELECT st.id IS NOT NULL, st.timezone, st.currency, st.hold_minutes, st.cancellation_window_min,
         st.min_notice_min, st.booking_horizon_days,
         sv.id IS NOT NULL, sv.is_active, sv.online_visible, sv.party_min, sv.party_max, sv.price_type,
         sv.deposit_policy,
         COALESCE(v.duration_min, sv.duration_min) + ad.extra_min,
         COALESCE(v.price_pence, sv.price_pence) + ad.extra_pence,
         (p_variant IS NULL OR v.id IS NOT NULL),
         ad.n = cardinality(p_addons),
         (p_unit IS NULL OR EXISTS (SELECT 1 FROM units u WHERE u.store_id = p_store AND u.id = p_unit)),
         cu.id IS NOT NULL, cu.erased_at IS NOT NULL,
         COALESCE(sc.blocked, false)
    FROM (VALUES (1)) AS one (x)
    LEFT JOIN stores st ON st.id = p_store
    LEFT JOIN services sv ON sv.store_id = p_store AND sv.id = p_service
    LEFT JOIN service_variants v ON v.store_id = p_store AND v.service_id = sv.id AND v.id = p_variant AND v.is_active
    LEFT JOIN LATERAL (
      SELECT COALESCE(sum(a.extra_min), 0)::int AS extra_min, COALESCE(sum(a.extra_pence), 0)::int AS extra_pence, count(*)::int AS n
        FROM service_addons a WHERE a.store_id = p_store AND a.service_id = sv.id AND a.id = ANY(p_addons) AND a.is_active) ad ON true
    LEFT JOIN customers cu ON cu.id = p_customer
    LEFT JOIN store_customers sc ON sc.store_id = p_store AND sc.customer_id = p_customer
$$;

-- One audit row, as rowOf in src/platform/audit.ts builds it: a merchant's row names the store from
-- the token; anyone else's (a customer's) from the change's details. Restated from migration 100 for
-- that second case, which the merchant-only writes never needed; still STABLE and inlined.
CREATE OR REPLACE FUNCTION bbo_audit_row(actor jsonb, at timestamptz, action text, entity text, entity_id text, details jsonb) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT actor || jsonb_build_object('action', action, 'entity', entity, 'entity_id', entity_id, 'details', details, 'created_at', bbo_iso(at))
    || CASE WHEN actor->>'actor_kind' = 'merchant' THEN '{}'::jsonb ELSE jsonb_build_object('store_id', details->'store_id') END
$$;

-- A hold as its events carry it (the hold after the change).
CREATE FUNCTION bbo_hold_json(h holds) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', h.id, 'unit_id', h.unit_id, 'customer_id', h.customer_id, 'service_id', h.service_id,
    'starts_at', bbo_iso(h.starts_at), 'ends_at', bbo_iso(h.ends_at), 'expires_at', bbo_iso(h.expires_at),
    'released_at', bbo_iso(h.released_at), 'release_reason', h.release_reason, 'appointment_id', h.appointment_id)
$$;

-- An outbox event row for bbo_write_finish.
CREATE FUNCTION bbo_event(v_store uuid, v_type text, at timestamptz, data jsonb) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('store_id', v_store, 'type', v_type, 'occurred_at', at, 'data', data)
$$;

-- Expired holds whose block meets [v_bstart, v_bend) on the unit: they block nobody any more, but
-- their occupancy row (unit_occupancy, migration 080) would refuse the write. Released here, under
-- the unit lock the caller holds, and returned as hold.expired event rows (reported when noticed).
CREATE FUNCTION bbo_release_expired_holds(v_store uuid, v_unit uuid, v_bstart timestamptz, v_bend timestamptz, at timestamptz)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  event_rows jsonb;
BEGIN
  WITH released AS (
    UPDATE holds h SET released_at = at, release_reason = 'expired'
     WHERE h.store_id = v_store AND h.unit_id = v_unit AND h.released_at IS NULL AND h.expires_at <= at
       AND h.block && tstzrange(v_bstart, v_bend)
    RETURNING h.*)
  SELECT coalesce(jsonb_agg(bbo_event(v_store, 'hold.expired', at, bbo_hold_json(r))), '[]') INTO event_rows FROM released r;
  RETURN event_rows;
END $$;

-- What stands in the way of a block on a unit (migration 101), now releasing expired holds through
-- the function above, which the customer's hold shares.
CREATE OR REPLACE FUNCTION bbo_clear_block(v_store uuid, v_unit uuid, v_bstart timestamptz, v_bend timestamptz, at timestamptz)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_what text;
BEGIN
  SELECT w.what INTO v_what FROM (
    SELECT 'hold' AS what FROM holds h
     WHERE h.store_id = v_store AND h.unit_id = v_unit AND h.released_at IS NULL
       AND (h.expires_at IS NULL OR h.expires_at > at)
       AND tstzrange(h.starts_at, h.ends_at) && tstzrange(v_bstart, v_bend)
    UNION ALL
    SELECT t.kind FROM time_off t
     WHERE t.store_id = v_store AND t.unit_id = v_unit AND tstzrange(t.starts_at, t.ends_at) && tstzrange(v_bstart, v_bend)
    LIMIT 1) w;
  IF FOUND THEN
    PERFORM bbo_refuse('UNIT_UNAVAILABLE', format('The unit is %s for part of that time',
      CASE WHEN v_what = 'hold' THEN 'held by a customer mid-checkout' ELSE 'on time off' END));
  END IF;
  RETURN bbo_release_expired_holds(v_store, v_unit, v_bstart, v_bend, at);
END $$;

-- The deposit an online booking asks (depositOf, as it was in TypeScript): deposit_policy is stored
-- as the merchant gave it, and two shapes are read from it: {"amount_pence": 1000}, a fixed deposit
-- capped at the price, or {"percent": 20}, a share of the price rounded to the penny (half up).
-- Anything else (null, {}, a zero) asks no deposit. docs/decisions.md, "Online booking".
CREATE FUNCTION bbo_deposit_of(policy jsonb, price integer) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN jsonb_typeof(policy->'amount_pence') = 'number' AND (policy->>'amount_pence')::numeric > 0
         AND (policy->>'amount_pence')::numeric = trunc((policy->>'amount_pence')::numeric)
      THEN least((policy->>'amount_pence')::numeric, price)::integer
    WHEN jsonb_typeof(policy->'percent') = 'number' AND (policy->>'percent')::numeric > 0
      THEN least(price, round(price * least((policy->>'percent')::numeric, 100) / 100))::integer
    ELSE 0 END
$$;

-- A confirm's answer when the hold's appointment already exists (a retried confirm): that appointment,
-- reused, with nothing new to audit or report.
CREATE FUNCTION bbo_confirm_reused(claim jsonb, actor jsonb, at timestamptz, a appointments) RETURNS jsonb
LANGUAGE sql AS $$
  SELECT jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
    jsonb_build_object('appointment', bbo_appointment_json(a), 'reused', true), '[]', '[]', actor))
$$;

-- The refusal of a start the availability function does not offer (hold and confirm).
CREATE FUNCTION bbo_refuse_not_offered() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bbo_refuse('SLOT_UNAVAILABLE', 'That start is not offered: availability would not show it for this service, unit and party');
END $$;

-- The customer's own hold, locked after its unit (unit before hold: the order every writer here
-- uses). Someone else's hold reads as missing.
CREATE FUNCTION bbo_own_hold(v_hold uuid, v_customer uuid) RETURNS holds
LANGUAGE plpgsql AS $$
DECLARE
  v_store uuid;
  v_unit  uuid;
  h       holds;
BEGIN
  SELECT x.store_id, x.unit_id INTO v_store, v_unit FROM holds x WHERE x.id = v_hold;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Hold not found');
  END IF;
  PERFORM 1 FROM units u WHERE u.store_id = v_store AND u.id = v_unit FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Unit not found');
  END IF;
  SELECT * INTO h FROM holds x WHERE x.id = v_hold FOR UPDATE;
  IF NOT FOUND OR h.customer_id IS DISTINCT FROM v_customer THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Hold not found');
  END IF;
  RETURN h;
END $$;

-- POST /bookings/holds. req: {store_id, service_id, variant_id, addon_ids, unit_id, party_size,
-- starts_at, customer_id}; addon_ids distinct and lower-cased by the caller, customer_id the
-- signed-in customer's. Returns {hold: {id, unit_id, starts_at, ends_at, expires_at}}.
CREATE FUNCTION bbo_customer_hold(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  stored     jsonb;
  v_store    uuid := (req->>'store_id')::uuid;
  v_service  uuid := (req->>'service_id')::uuid;
  v_variant  uuid := (req->>'variant_id')::uuid;
  v_addons   uuid[] := ARRAY(SELECT jsonb_array_elements_text(coalesce(req->'addon_ids', '[]'))::uuid);
  v_unit     uuid := (req->>'unit_id')::uuid;
  v_party    integer := coalesce((req->>'party_size')::integer, 1);
  v_customer uuid := (req->>'customer_id')::uuid;
  v_start    timestamptz := (req->>'starts_at')::timestamptz;
  t          record;
  slot       record;
  v_offered  boolean := false;
  v_chosen   uuid;
  h          holds;
  event_rows jsonb;
BEGIN
  stored := bbo_idempotency_claim(claim, at);
  IF stored IS NOT NULL THEN
    RETURN jsonb_build_object('replayed', true, 'body', stored);
  END IF;

  -- The question's terms, each refusal in this order (assertTerms in availability.service.ts; in the
  -- customer's view a hidden or archived service is unknown), then the customer's standing.
  SELECT * INTO t FROM bbo_booking_terms(v_store, v_service, v_variant, v_addons, v_unit, v_customer);
  IF NOT t.store_found THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Store not found');
  END IF;
  IF NOT t.service_found OR NOT t.online_visible OR NOT t.is_active THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Service not found');
  END IF;
  IF NOT t.variant_found THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Variant not found');
  END IF;
  IF NOT t.addons_found THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Add-on not found');
  END IF;
  IF NOT t.unit_in_store THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Unit not found');
  END IF;
  -- assertPartyFits in src/bookings/services/party-size.ts.
  IF v_party < t.party_min OR v_party > t.party_max THEN
    PERFORM bbo_refuse('PARTY_SIZE_OUT_OF_RANGE', format('party_size %s does not fit this service, which takes parties of %s', v_party,
      CASE WHEN t.party_min = t.party_max THEN t.party_min::text ELSE t.party_min || ' to ' || t.party_max END));
  END IF;
  IF NOT t.customer_found THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Customer not found');
  END IF;
  IF t.customer_erased THEN
    PERFORM bbo_refuse('CUSTOMER_ERASED', 'The customer asked to be deleted and cannot book');
  END IF;
  IF t.customer_blocked THEN
    PERFORM bbo_refuse('CUSTOMER_BLOCKED', 'The store does not take online bookings from this customer');
  END IF;

  -- Lock every unit that could take the start, by id, then ask the availability function whether
  -- the start is offered and on which units: a hold lands only where the search would offer it.
  -- Without a unit asked for, the first free unit in diary order is taken.
  PERFORM 1 FROM units u
   WHERE u.store_id = v_store AND u.id IN (SELECT o.id FROM bbo_offerable_units(v_store, v_unit, true) o)
   ORDER BY u.id FOR UPDATE OF u;
  IF FOUND THEN
    SELECT * INTO slot FROM bbo_offered_slots(v_store, v_service, v_variant, v_addons, v_unit, v_party,
      NULL, NULL, v_start, true, v_customer, at, at) LIMIT 1;
    v_offered := FOUND;
  END IF;
  IF NOT v_offered THEN
    PERFORM bbo_refuse_not_offered();
  END IF;
  v_chosen := split_part(slot.unit_ids, ',', 1)::uuid;
  event_rows := bbo_release_expired_holds(v_store, v_chosen, slot.block_starts_at, slot.block_ends_at, at);
  INSERT INTO holds (store_id, unit_id, customer_id, service_id, variant_id, addon_ids, party_size, starts_at, ends_at, block,
    expires_at, unit_choice, created_at)
  VALUES (v_store, v_chosen, v_customer, v_service, v_variant, v_addons, v_party, slot.starts_at, slot.ends_at,
    tstzrange(slot.block_starts_at, slot.block_ends_at), at + make_interval(mins => t.hold_minutes),
    CASE WHEN v_unit IS NULL THEN 'first_free' ELSE 'asked' END, at)
  RETURNING * INTO h;

  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
    jsonb_build_object('hold', jsonb_build_object('id', h.id, 'unit_id', h.unit_id, 'starts_at', bbo_iso(h.starts_at),
      'ends_at', bbo_iso(h.ends_at), 'expires_at', bbo_iso(h.expires_at))),
    jsonb_build_array(bbo_audit_row(actor, at, 'hold.created', 'hold', h.id::text,
      jsonb_build_object('store_id', h.store_id, 'unit_choice', h.unit_choice))),
    event_rows || jsonb_build_array(bbo_event(v_store, 'hold.created', at, bbo_hold_json(h))),
    actor));
END $$;

-- POST /bookings/holds/{id}/confirm. req: {hold_id, customer_id, guest_note}; the note trimmed by
-- the caller, null when empty. Returns {appointment, reused}.
CREATE FUNCTION bbo_customer_confirm(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  stored     jsonb;
  v_customer uuid := (req->>'customer_id')::uuid;
  h          holds;
  t          record;
  slot       record;
  v_price    integer;
  v_deposit  integer;
  v_bstart   timestamptz;
  v_bend     timestamptz;
  v_unit_ok  boolean;
  a          appointments;
  presented  jsonb;
  event_rows jsonb;
BEGIN
  stored := bbo_idempotency_claim(claim, at);
  IF stored IS NOT NULL THEN
    RETURN jsonb_build_object('replayed', true, 'body', stored);
  END IF;
  h := bbo_own_hold((req->>'hold_id')::uuid, v_customer);

  -- A retried confirm (the first answer was lost) returns what the first one booked.
  IF h.appointment_id IS NOT NULL THEN
    SELECT * INTO a FROM appointments x WHERE x.store_id = h.store_id AND x.id = h.appointment_id;
    IF FOUND THEN
      RETURN bbo_confirm_reused(claim, actor, at, a);
    END IF;
  END IF;
  IF h.release_reason = 'expired' OR (h.released_at IS NULL AND h.expires_at IS NOT NULL AND h.expires_at <= at) THEN
    PERFORM bbo_refuse('HOLD_EXPIRED', 'The hold lapsed before it was confirmed; search again and hold a new slot');
  END IF;
  IF h.released_at IS NOT NULL THEN
    PERFORM bbo_refuse('HOLD_RELEASED', 'The hold was released; search again and hold a new slot');
  END IF;

  SELECT * INTO t FROM bbo_booking_terms(h.store_id, h.service_id, h.variant_id, h.addon_ids, h.unit_id, v_customer);
  IF NOT t.store_found OR NOT t.service_found THEN
    PERFORM bbo_refuse('SLOT_UNAVAILABLE', 'The service is no longer offered');
  END IF;
  -- Snapshotted: later changes to the service never reprice this appointment. Per head for a
  -- per_person service. A deposit is due before the booking is firm; no money moves here.
  v_price := CASE WHEN t.price_type = 'per_person' THEN t.price_pence * h.party_size ELSE t.price_pence END;
  v_deposit := bbo_deposit_of(t.deposit_policy, v_price);

  -- End the hold first (its time is then free only inside this statement, under the unit lock),
  -- then ask the availability function again for this start on this unit, with notice and horizon
  -- counted from when the hold was placed (the merchant may have changed hours or added time-off).
  UPDATE holds x SET released_at = at, release_reason = 'confirmed' WHERE x.id = h.id;
  SELECT * INTO slot FROM bbo_offered_slots(h.store_id, h.service_id, h.variant_id, h.addon_ids, h.unit_id, h.party_size,
    NULL, NULL, h.starts_at, true, v_customer, h.created_at, at) LIMIT 1;
  IF NOT FOUND OR NOT (h.unit_id::text = ANY (string_to_array(slot.unit_ids, ','))) THEN
    PERFORM bbo_refuse_not_offered();
  END IF;

  -- Book it as the booking authority books (bbo_merchant_book's order): the block checked, the unit
  -- (locked already) bookable, holds and time-off clear, then the insert, with the hold as its
  -- client token so nothing can book this hold twice.
  SELECT b.block_start, b.block_end INTO v_bstart, v_bend
    FROM bbo_occupied_block(jsonb_build_object('block_starts_at', slot.block_starts_at, 'block_ends_at', slot.block_ends_at),
                            slot.starts_at, slot.ends_at, 0, 0) b;
  SELECT u.is_active AND u.bookable INTO v_unit_ok FROM units u WHERE u.store_id = h.store_id AND u.id = h.unit_id;
  IF NOT v_unit_ok THEN
    PERFORM bbo_refuse('UNIT_NOT_BOOKABLE', 'The unit is inactive or not bookable');
  END IF;
  event_rows := bbo_clear_block(h.store_id, h.unit_id, v_bstart, v_bend, at);
  INSERT INTO appointments (store_id, unit_id, service_id, customer_id, starts_at, ends_at, block, status, payment_status,
    price_pence, deposit_pence, currency, party_size, children, high_chairs, source, is_override, client_token, created_by,
    guest_note, created_at, updated_at)
  VALUES (h.store_id, h.unit_id, h.service_id, v_customer, slot.starts_at, slot.ends_at, tstzrange(v_bstart, v_bend),
    CASE WHEN v_deposit > 0 THEN 'pending_payment' ELSE 'confirmed' END, 'none', v_price, v_deposit, t.currency, h.party_size,
    0, 0, 'online', false, 'hold:' || h.id, 'customer:' || v_customer, req->>'guest_note', at, at)
  ON CONFLICT (store_id, client_token) WHERE client_token IS NOT NULL DO NOTHING
  RETURNING * INTO a;
  IF NOT FOUND THEN
    -- This hold's appointment exists without the hold knowing it (the client-token reuse of
    -- bbo_merchant_book): link it and return it, as a retried confirm returns it; nothing new to report.
    SELECT * INTO a FROM appointments x WHERE x.store_id = h.store_id AND x.client_token = 'hold:' || h.id;
    UPDATE holds x SET appointment_id = a.id WHERE x.id = h.id;
    RETURN bbo_confirm_reused(claim, actor, at, a);
  END IF;
  UPDATE holds x SET appointment_id = a.id WHERE x.id = h.id RETURNING * INTO h;

  -- A booking is activity with the store (touchStoreRelationship).
  INSERT INTO store_customers (store_id, customer_id, first_seen_at, last_seen_at, updated_at)
  VALUES (h.store_id, v_customer, at, at, at)
  ON CONFLICT (store_id, customer_id) DO UPDATE SET last_seen_at = GREATEST(store_customers.last_seen_at, EXCLUDED.last_seen_at);

  presented := bbo_appointment_json(a);
  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
    jsonb_build_object('appointment', presented, 'reused', false),
    jsonb_build_array(bbo_audit_row(actor, at, 'appointment.created', 'appointment', a.id::text,
      jsonb_build_object('store_id', h.store_id, 'hold_id', h.id, 'source', 'online', 'status', a.status))),
    event_rows || jsonb_build_array(bbo_event(h.store_id, 'hold.released', at, bbo_hold_json(h)),
                                    bbo_event(h.store_id, 'appointment.created', at, presented)),
    actor));
END $$;

-- DELETE /bookings/holds/{id}. req: {hold_id, customer_id}. Idempotent: a hold already ended is a
-- noop; a lapsed hold noticed here is reported as what it is (hold.expired, released false).
CREATE FUNCTION bbo_customer_release(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  stored   jsonb;
  h        holds;
  v_lapsed boolean;
BEGIN
  stored := bbo_idempotency_claim(claim, at);
  IF stored IS NOT NULL THEN
    RETURN jsonb_build_object('replayed', true, 'body', stored);
  END IF;
  h := bbo_own_hold((req->>'hold_id')::uuid, (req->>'customer_id')::uuid);
  IF h.released_at IS NOT NULL THEN
    RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
      jsonb_build_object('hold_id', h.id, 'released', false, 'noop', true), '[]', '[]', actor));
  END IF;
  v_lapsed := h.expires_at IS NOT NULL AND h.expires_at <= at;
  UPDATE holds x SET released_at = at, release_reason = CASE WHEN v_lapsed THEN 'expired' ELSE 'released' END
   WHERE x.id = h.id RETURNING * INTO h;
  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
    jsonb_build_object('hold_id', h.id, 'released', NOT v_lapsed, 'noop', v_lapsed),
    jsonb_build_array(bbo_audit_row(actor, at, 'hold.released', 'hold', h.id::text, jsonb_build_object('store_id', h.store_id))),
    jsonb_build_array(bbo_event(h.store_id, CASE WHEN v_lapsed THEN 'hold.expired' ELSE 'hold.released' END, at, bbo_hold_json(h))),
    actor));
END $$;
