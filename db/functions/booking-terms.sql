-- What an online question needs before the slot statement runs, in one row (always exactly one):
-- the store and its online settings, the service with the variant and add-ons asked for (told
-- duration and price, add-ons included; the variant's price wins), the unit asked for, and the
-- customer's standing. Each is filtered on the store, so another store's record reads as missing.
-- Owners: the search's bookingTerms (src/bookings/availability/booking-terms.repository.ts), and the
-- customer's hold and confirm (customer-hold.sql, customer-confirm.sql).
CREATE OR REPLACE FUNCTION bbo_booking_terms(p_store uuid, p_service uuid, p_variant uuid, p_addons uuid[], p_unit uuid, p_customer uuid)
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

-- The one price rule (docs/decisions/pricing.md): what a booking of a service costs the party, from
-- every door (the merchant's create, the walk-in seat, the online hold and confirm, a move that
-- changes what is booked). A per_person service costs its price once a head; any other price type
-- once. The merchant's create may state price_pence instead, which wins (merchant-book.sql).
CREATE OR REPLACE FUNCTION bbo_party_price(price_type text, price_pence integer, party_size integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT price_pence * CASE WHEN price_type = 'per_person' THEN coalesce(party_size, 1) ELSE 1 END
$$;

-- The deposit an online booking asks: deposit_policy is stored as the merchant gave it, and two shapes are read from it: {"amount_pence": 1000}, a fixed deposit
-- capped at the price, or {"percent": 20}, a share of the price rounded to the penny (half up).
-- Anything else (null, {}, a zero) asks no deposit (docs/decisions/online-booking.md).
CREATE OR REPLACE FUNCTION bbo_deposit_of(policy jsonb, price integer) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN jsonb_typeof(policy->'amount_pence') = 'number' AND (policy->>'amount_pence')::numeric > 0
         AND (policy->>'amount_pence')::numeric = trunc((policy->>'amount_pence')::numeric)
      THEN least((policy->>'amount_pence')::numeric, price)::integer
    WHEN jsonb_typeof(policy->'percent') = 'number' AND (policy->>'percent')::numeric > 0
      THEN least(price, round(price * least((policy->>'percent')::numeric, 100) / 100))::integer
    ELSE 0 END
$$;

-- The one party-size rule: a party must fit the service's party_min..party_max. True when it fits,
-- false when it does not, null when the party or a bound is null (the caller names no party, or no
-- service). bbo_offered_slots filters the service by it (offered-slots.sql: a party outside the range
-- is offered nothing); the refusal below words it.
CREATE OR REPLACE FUNCTION bbo_party_fits(p_party integer, p_min integer, p_max integer) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT p_party BETWEEN p_min AND p_max
$$;

-- The party rule's refusal: null when it fits (or nothing is named), else the message. The desk's
-- create and the customer's hold refuse by it (bbo_require_party_fits); the walk-in join and the
-- availability search read it with their facts (src/bookings/queue/queue.repository.ts,
-- src/bookings/availability/booking-terms.repository.ts).
CREATE OR REPLACE FUNCTION bbo_party_refusal(p_party integer, p_min integer, p_max integer) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN NOT bbo_party_fits(p_party, p_min, p_max)
    THEN format('party_size %s does not fit this service, which takes parties of %s', p_party,
      CASE WHEN p_min = p_max THEN p_min::text ELSE p_min || ' to ' || p_max END) END
$$;

CREATE OR REPLACE FUNCTION bbo_require_party_fits(p_party integer, p_min integer, p_max integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  refusal text := bbo_party_refusal(p_party, p_min, p_max);
BEGIN
  IF refusal IS NOT NULL THEN
    PERFORM bbo_refuse('PARTY_SIZE_OUT_OF_RANGE', refusal);
  END IF;
END $$;
