-- The shop's booking page as one-statement writes (docs/decisions/booking-page.md): the guest's hold,
-- its release and confirm, and the move from the manage link, each ONE call of a function here.
-- Owner: src/bookings/booking-authority.ts (holdForPage, releaseForPage, confirmForPage,
-- rescheduleForPage), through src/platform/one-statement.ts.
--
-- Each composes the checkout's own functions (customer-hold.sql, customer-confirm.sql, and the
-- merchant's move in merchant-reschedule.sql), called with no claim of their own, with what only the page adds: a hold
-- owned by a page session (a random id the server signed) until a signed-in customer confirms it,
-- one live hold per session, and a cap on live holds per client address (kept as a keyed hash).
-- No double booking is still the exclusion constraint's decision (Cal.com #13397, Easy!Appointments
-- #845: no check-then-insert).

-- A page session's hold in the page's store, locked (bbo_lock_hold). A hold of another session or
-- store reads as missing.
CREATE OR REPLACE FUNCTION bbo_page_own_hold(v_store uuid, v_hold uuid, v_session uuid) RETURNS holds
LANGUAGE plpgsql AS $$
DECLARE
  h holds := bbo_lock_hold(v_hold, v_store);
BEGIN
  IF h.page_session IS DISTINCT FROM v_session THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Hold not found');
  END IF;
  RETURN h;
END $$;

-- POST /book/{slug}/holds. req: the customer hold's fields with no customer_id, plus page_session,
-- client_address_hash and address_cap. Returns {hold: {id, unit_id, starts_at, ends_at, expires_at}}.
CREATE OR REPLACE FUNCTION bbo_page_hold(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_store    uuid := (req->>'store_id')::uuid;
  v_session  uuid := (req->>'page_session')::uuid;
  v_address  text := req->>'client_address_hash';
  v_live     integer;
  released   jsonb;
  placed     jsonb;
BEGIN
  -- One decision at a time per session, then per address (always in that order): two tabs or a
  -- script placing at once cannot both pass the count below.
  PERFORM pg_advisory_xact_lock(hashtext('bbo-page-session:' || v_session::text));
  PERFORM pg_advisory_xact_lock(hashtext('bbo-page-address:' || v_address));

  -- One live hold per browser: the session's previous hold ends here, reported as what it was.
  WITH ended AS (
    UPDATE holds x SET released_at = at, release_reason = CASE WHEN bbo_hold_lapsed(x.expires_at, at) THEN 'expired' ELSE 'released' END
     WHERE x.page_session = v_session AND x.released_at IS NULL
    RETURNING x.*)
  SELECT coalesce(jsonb_agg(bbo_event(e.store_id, CASE WHEN e.release_reason = 'expired' THEN 'hold.expired' ELSE 'hold.released' END,
           at, bbo_hold_json(e))), '[]')
    INTO released FROM ended e;
  PERFORM bbo_write_finish(NULL, at, '{}'::jsonb, '[]', released, actor);

  -- A few live holds per client address, so a script cannot hold a whole day.
  SELECT count(*) INTO v_live FROM holds x
   WHERE x.client_address_hash = v_address AND x.released_at IS NULL AND x.expires_at > at;
  IF v_live >= (req->>'address_cap')::integer THEN
    PERFORM bbo_refuse('TOO_MANY_HOLDS', format('This connection already holds %s times; book one of them or wait a few minutes for one to lapse', v_live));
  END IF;

  -- The customer hold's own path with no customer yet (terms, offered start, first free unit, the
  -- occupancy constraint), then the hold marked as this session's.
  placed := bbo_customer_hold(NULL, actor, at, req || jsonb_build_object('customer_id', NULL));
  UPDATE holds x SET page_session = v_session, client_address_hash = v_address WHERE x.id = (placed->'body'->'hold'->>'id')::uuid;
  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at, placed->'body', '[]', '[]', actor));
END $$;

-- DELETE /book/{slug}/holds/{id}. req: {store_id, hold_id, page_session}. Idempotent, as the
-- customer's release: a hold already ended is a noop; a lapsed one is reported as hold.expired.
CREATE OR REPLACE FUNCTION bbo_page_release(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  -- The customer's release's own path (bbo_end_hold, customer-hold.sql) on the session's hold.
  RETURN bbo_end_hold(claim, actor, at, bbo_page_own_hold((req->>'store_id')::uuid, (req->>'hold_id')::uuid, (req->>'page_session')::uuid));
END $$;

-- The session's hold given to the signed-in customer (their standing checked first): what the
-- customer's confirm then books. A hold already given to another customer reads as missing.
CREATE OR REPLACE FUNCTION bbo_page_adopt_hold(v_store uuid, v_hold uuid, v_session uuid, v_customer uuid) RETURNS holds
LANGUAGE plpgsql AS $$
DECLARE
  h holds;
  c record;
BEGIN
  h := bbo_page_own_hold(v_store, v_hold, v_session);
  IF h.customer_id IS NOT NULL AND h.customer_id <> v_customer THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Hold not found');
  END IF;
  SELECT cu.erased_at IS NOT NULL AS erased, coalesce(sc.blocked, false) AS blocked INTO c
    FROM customers cu LEFT JOIN store_customers sc ON sc.store_id = v_store AND sc.customer_id = cu.id
   WHERE cu.id = v_customer;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Customer not found');
  END IF;
  IF c.erased THEN
    PERFORM bbo_refuse('CUSTOMER_ERASED', 'This customer asked to be deleted and cannot book');
  END IF;
  IF c.blocked THEN
    PERFORM bbo_refuse('CUSTOMER_BLOCKED', 'The shop does not take online bookings from this customer');
  END IF;
  -- Unowned, or this customer's already (a retried confirm): either way it is theirs now.
  UPDATE holds x SET customer_id = v_customer WHERE x.id = h.id RETURNING * INTO h;
  RETURN h;
END $$;

-- POST /book/{slug}/holds/{id}/confirm. req: {store_id, hold_id, page_session, customer_id,
-- guest_note}. Returns {appointment, reused}: the customer confirm's answer (a retry returns the
-- first appointment; a lapsed hold is refused HOLD_EXPIRED). A refusal leaves the hold as it was.
CREATE OR REPLACE FUNCTION bbo_page_confirm(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_customer uuid := (req->>'customer_id')::uuid;
  h holds;
  booked jsonb;
BEGIN
  h := bbo_page_adopt_hold((req->>'store_id')::uuid, (req->>'hold_id')::uuid, (req->>'page_session')::uuid, v_customer);
  booked := bbo_customer_confirm(NULL, actor, at, jsonb_build_object('hold_id', h.id, 'customer_id', v_customer, 'guest_note', req->'guest_note'));
  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at, booked->'body', '[]', '[]', actor));
END $$;

-- POST /book/{slug}/manage/reschedule. req: {store_id, appointment_id, hold_id, page_session,
-- customer_id}. The booking MOVES to the held time, as the merchant's reschedule moves one: the same
-- appointment (its id and payment kept, its price too unless the hold changes what is booked; a
-- paid deposit is not asked for again), one
-- appointment.rescheduled event, so the customer gets a "changed" message, not a cancellation. The
-- hold ends as it does on confirm. Held to the customer's own rules (their booking, still live,
-- outside the cancellation window) and the hold to the same service and party; if anything is
-- refused (the window, a lapsed hold, a time taken meanwhile) nothing changes. Locks the appointment
-- first, then the units, the order of bbo_merchant_reschedule. Returns {appointment}.
CREATE OR REPLACE FUNCTION bbo_page_reschedule(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_store    uuid := (req->>'store_id')::uuid;
  v_customer uuid := (req->>'customer_id')::uuid;
  a          appointments;
  h          holds;
  slot       record;
  t          record;
  v_price    integer;
  v_deposit  integer;
BEGIN
  a := bbo_lock_appointment((req->>'appointment_id')::uuid, v_store, v_customer);
  IF a.status NOT IN ('pending_payment', 'confirmed') THEN
    PERFORM bbo_refuse('INVALID_TRANSITION', 'This booking can no longer be moved');
  END IF;
  PERFORM bbo_refuse_inside_window(a, at, 'move', 'moved');
  h := bbo_page_adopt_hold(v_store, (req->>'hold_id')::uuid, (req->>'page_session')::uuid, v_customer);
  PERFORM bbo_refuse_unusable_hold(h, at);
  IF h.service_id IS DISTINCT FROM a.service_id OR h.party_size <> a.party_size THEN
    PERFORM bbo_refuse('VALIDATION_FAILED', 'A move keeps the service and party size: hold a time for the same service');
  END IF;

  -- A move that changes what is booked (another variant, other add-ons) prices it as a fresh
  -- booking of the hold would (docs/decisions/pricing.md): the one price rule on the hold's terms.
  -- A deposit still due (pending, nothing paid) follows the new price, and with none due any more
  -- the booking is confirmed; a paid deposit stays what was paid; a confirmed booking is not asked
  -- for a deposit it was never asked for. Written before the move, so its event carries the price.
  IF h.variant_id IS DISTINCT FROM a.variant_id
     OR NOT (h.addon_ids @> a.addon_ids AND a.addon_ids @> h.addon_ids) THEN
    SELECT * INTO t FROM bbo_booking_terms(v_store, h.service_id, h.variant_id, h.addon_ids, h.unit_id, v_customer);
    v_price := bbo_party_price(t.price_type, t.price_pence, h.party_size);
    v_deposit := CASE WHEN a.status = 'pending_payment' AND a.payment_status = 'none'
                      THEN bbo_deposit_of(t.deposit_policy, v_price) ELSE a.deposit_pence END;
    UPDATE appointments x SET variant_id = h.variant_id, addon_ids = h.addon_ids, price_pence = v_price, deposit_pence = v_deposit,
           status = CASE WHEN x.status = 'pending_payment' AND v_deposit = 0 THEN 'confirmed' ELSE x.status END, updated_at = at
     WHERE x.store_id = v_store AND x.id = a.id;
  END IF;

  -- End the hold (it becomes this booking's time), then ask the availability function again for
  -- the start on that unit, as confirm does, and move the appointment there.
  UPDATE holds x SET released_at = at, release_reason = 'confirmed', appointment_id = a.id WHERE x.id = h.id RETURNING * INTO h;
  SELECT * INTO slot FROM bbo_held_slot(h, v_customer, at);
  PERFORM bbo_merchant_reschedule(NULL, actor, at, jsonb_build_object('store_id', v_store, 'appointment_id', a.id,
    'unit_id', h.unit_id, 'starts_at', slot.starts_at, 'ends_at', slot.ends_at,
    'block_starts_at', slot.block_starts_at, 'block_ends_at', slot.block_ends_at, 'override', false));
  SELECT * INTO a FROM appointments x WHERE x.store_id = v_store AND x.id = a.id;
  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
    jsonb_build_object('appointment', bbo_appointment_json(a)), '[]',
    jsonb_build_array(bbo_event(v_store, 'hold.released', at, bbo_hold_json(h))), actor));
END $$;
