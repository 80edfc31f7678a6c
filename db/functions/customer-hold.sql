-- The customer's checkout as one-statement writes (docs/architecture.md, "One-statement writes"):
-- POST /bookings/holds and DELETE /bookings/holds/{id}, each ONE call of a function here.
-- Owner: src/bookings/booking-authority.ts (holdForCustomer, releaseForCustomer), through src/platform/one-statement.ts.
--
-- "Offered" is decided by bbo_offered_slots (offered-slots.sql), the function the availability search
-- runs: a hold is placed only where the search would offer the start, and a confirm books only if
-- the start is still offered. The no-double-booking guarantee is the exclusion constraint
-- unit_occupancy_no_overlap (occupancy.sql keeps its rows): its violation (23P01) leaves these
-- functions as the error it is and the caller maps it to SLOT_TAKEN.

-- The refusal of a start the availability function does not offer (hold, and confirm in
-- customer-confirm.sql).
CREATE OR REPLACE FUNCTION bbo_refuse_not_offered() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bbo_refuse('SLOT_UNAVAILABLE', 'That start is not offered: availability would not show it for this service, unit and party');
END $$;

-- A hold lapses at its expiry: one expiring at or before `at` has lapsed; one without an expiry
-- never does. The release (bbo_end_hold), the page's one-hold-per-session ending (booking-page.sql)
-- and the confirm's refusal (bbo_refuse_unusable_hold, customer-confirm.sql) read it.
CREATE OR REPLACE FUNCTION bbo_hold_lapsed(expires_at timestamptz, at timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT expires_at IS NOT NULL AND expires_at <= at
$$;

-- A hold locked after its unit (unit before hold: the order every writer here uses), within v_store
-- when one is given. A missing hold, or one of another store, is refused as missing. The owner is
-- each caller's to check: bbo_own_hold (a customer), bbo_page_own_hold (a page session).
CREATE OR REPLACE FUNCTION bbo_lock_hold(v_hold uuid, v_store uuid) RETURNS holds
LANGUAGE plpgsql AS $$
DECLARE
  v_in   uuid;
  v_unit uuid;
  h      holds;
BEGIN
  SELECT x.store_id, x.unit_id INTO v_in, v_unit FROM holds x WHERE x.id = v_hold AND (v_store IS NULL OR x.store_id = v_store);
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Hold not found');
  END IF;
  PERFORM 1 FROM units u WHERE u.store_id = v_in AND u.id = v_unit FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Unit not found');
  END IF;
  SELECT * INTO h FROM holds x WHERE x.id = v_hold FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Hold not found');
  END IF;
  RETURN h;
END $$;

-- The customer's own hold, locked (bbo_lock_hold). Someone else's hold reads as missing.
CREATE OR REPLACE FUNCTION bbo_own_hold(v_hold uuid, v_customer uuid) RETURNS holds
LANGUAGE plpgsql AS $$
DECLARE
  h holds := bbo_lock_hold(v_hold, NULL);
BEGIN
  IF h.customer_id IS DISTINCT FROM v_customer THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Hold not found');
  END IF;
  RETURN h;
END $$;

-- POST /bookings/holds. req: {store_id, service_id, variant_id, addon_ids, unit_id, party_size,
-- starts_at, customer_id, client_address_hash, address_cap, customer_cap}; addon_ids distinct and
-- lower-cased by the caller, customer_id the signed-in customer's (null only from bbo_page_hold: a
-- guest's hold); the caps and the address hash (per store) from src/bookings/holds/hold-caps.ts. Returns {hold: {id, unit_id, starts_at, ends_at, expires_at,
-- price_pence, deposit_pence, currency}}.
CREATE OR REPLACE FUNCTION bbo_customer_hold(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_store    uuid := (req->>'store_id')::uuid;
  v_service  uuid := (req->>'service_id')::uuid;
  v_variant  uuid := (req->>'variant_id')::uuid;
  v_addons   uuid[] := ARRAY(SELECT jsonb_array_elements_text(coalesce(req->'addon_ids', '[]'))::uuid);
  v_unit     uuid := (req->>'unit_id')::uuid;
  v_party    integer := coalesce((req->>'party_size')::integer, 1);
  v_customer uuid := (req->>'customer_id')::uuid;
  v_start    timestamptz := (req->>'starts_at')::timestamptz;
  v_address  text := req->>'client_address_hash';
  v_live     integer;
  t          record;
  slot       record;
  v_offered  boolean := false;
  v_chosen   uuid;
  v_price    integer;
  h          holds;
  event_rows jsonb;
BEGIN
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
  -- The one party rule (booking-terms.sql).
  PERFORM bbo_require_party_fits(v_party, t.party_min, t.party_max);
  -- No customer: a guest's hold from the booking page (bbo_page_hold, booking-page.sql), whose
  -- standing is checked when a signed-in customer confirms it.
  IF v_customer IS NOT NULL AND NOT t.customer_found THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Customer not found');
  END IF;
  IF t.customer_erased THEN
    PERFORM bbo_refuse('CUSTOMER_ERASED', 'The customer asked to be deleted and cannot book');
  END IF;
  IF t.customer_blocked THEN
    PERFORM bbo_refuse('CUSTOMER_BLOCKED', 'The store does not take online bookings from this customer');
  END IF;

  -- The caps on live holds at this store (issue 41, hold-caps.ts): per client address, then per
  -- customer, each decided under its advisory lock (address before customer, the order bbo_page_hold
  -- uses too), so two holds placed at once cannot both pass the count.
  IF v_address IS NOT NULL AND req->>'address_cap' IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext('bbo-page-address:' || v_address));
    SELECT count(*) INTO v_live FROM holds x
     WHERE x.store_id = v_store AND x.client_address_hash = v_address AND x.released_at IS NULL AND x.expires_at > at;
    IF v_live >= (req->>'address_cap')::integer THEN
      PERFORM bbo_refuse('TOO_MANY_HOLDS', format('This connection already holds %s times here; book one of them or wait a few minutes for one to lapse', v_live));
    END IF;
  END IF;
  IF v_customer IS NOT NULL AND req->>'customer_cap' IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext('bbo-customer-holds:' || v_store::text || ':' || v_customer::text));
    SELECT count(*) INTO v_live FROM holds x
     WHERE x.store_id = v_store AND x.customer_id = v_customer AND x.released_at IS NULL AND x.expires_at > at;
    IF v_live >= (req->>'customer_cap')::integer THEN
      PERFORM bbo_refuse('TOO_MANY_HOLDS', format('You already hold %s times here; book one of them or let one go first', v_live));
    END IF;
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
  v_price := bbo_party_price(t.price_type, t.price_pence, v_party);
  event_rows := bbo_release_expired_holds(v_store, v_chosen, slot.block_starts_at, slot.block_ends_at, at);
  INSERT INTO holds (store_id, unit_id, customer_id, service_id, variant_id, addon_ids, party_size, starts_at, ends_at, block,
    expires_at, unit_choice, created_at, client_address_hash)
  VALUES (v_store, v_chosen, v_customer, v_service, v_variant, v_addons, v_party, slot.starts_at, slot.ends_at,
    tstzrange(slot.block_starts_at, slot.block_ends_at), at + make_interval(mins => t.hold_minutes),
    CASE WHEN v_unit IS NULL THEN 'first_free' ELSE 'asked' END, at, v_address)
  RETURNING * INTO h;

  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
    -- The quote: what booking this hold costs now, by the one price rule and the deposit rule
    -- (booking-terms.sql); the confirm, or a move that changes what is booked, charges it.
    jsonb_build_object('hold', jsonb_build_object('id', h.id, 'unit_id', h.unit_id, 'starts_at', bbo_iso(h.starts_at),
      'ends_at', bbo_iso(h.ends_at), 'expires_at', bbo_iso(h.expires_at), 'price_pence', v_price,
      'deposit_pence', bbo_deposit_of(t.deposit_policy, v_price), 'currency', t.currency)),
    jsonb_build_array(bbo_audit_row(actor, at, 'hold.created', 'hold', h.id::text,
      jsonb_build_object('store_id', h.store_id, 'unit_choice', h.unit_choice))),
    event_rows || jsonb_build_array(bbo_event(v_store, 'hold.created', at, bbo_hold_json(h))),
    actor));
END $$;

-- DELETE /bookings/holds/{id}. req: {hold_id, customer_id}. Idempotent: a hold already ended is a
-- noop; a lapsed hold noticed here is reported as what it is (hold.expired, released false).
CREATE OR REPLACE FUNCTION bbo_customer_release(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  RETURN bbo_end_hold(claim, actor, at, bbo_own_hold((req->>'hold_id')::uuid, (req->>'customer_id')::uuid));
END $$;

-- Letting a locked hold go, as the customer's release and the page's release both do. Idempotent:
-- a hold already ended is a noop; a lapsed hold noticed here is reported as what it is
-- (hold.expired, released false). Returns the write's answer {replayed, body}.
CREATE OR REPLACE FUNCTION bbo_end_hold(claim jsonb, actor jsonb, at timestamptz, h holds) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_lapsed boolean;
BEGIN
  IF h.released_at IS NOT NULL THEN
    RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
      jsonb_build_object('hold_id', h.id, 'released', false, 'noop', true), '[]', '[]', actor));
  END IF;
  v_lapsed := bbo_hold_lapsed(h.expires_at, at);
  UPDATE holds x SET released_at = at, release_reason = CASE WHEN v_lapsed THEN 'expired' ELSE 'released' END
   WHERE x.id = h.id RETURNING * INTO h;
  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
    jsonb_build_object('hold_id', h.id, 'released', NOT v_lapsed, 'noop', v_lapsed),
    jsonb_build_array(bbo_audit_row(actor, at, 'hold.released', 'hold', h.id::text, jsonb_build_object('store_id', h.store_id))),
    jsonb_build_array(bbo_event(h.store_id, CASE WHEN v_lapsed THEN 'hold.expired' ELSE 'hold.released' END, at, bbo_hold_json(h))),
    actor));
END $$;
