-- Booking a block of time into a unit, written once: lock the unit, check it is bookable, clear the
-- time (holds and time-off refuse, expired holds are released), insert the appointment. Every door
-- that books calls bbo_book_unit: the merchant's create (merchant-book.sql), the walk-in seat
-- (queue-seat.sql), the customer's confirm (customer-confirm.sql) and through it the booking page's
-- confirm (booking-page.sql), and an import's rows (import-appointments.sql). A move keeps its appointment, so it calls the middle part alone
-- (bbo_claim_unit_time, merchant-reschedule.sql and through it the page's move).
-- Owner: src/bookings/booking-authority.ts, through src/platform/one-statement.ts.
--
-- What a booking costs is the price rule's (bbo_party_price, booking-terms.sql); what it occupies is
-- bbo_occupied_block's (unit-blocks.sql). The no-double-booking guarantee stays the exclusion
-- constraint unit_occupancy_no_overlap: its violation (23P01) leaves here as the error it is.

-- The unit's time made ready for a write, under the unit lock the caller holds: refused unless the
-- unit is bookable (active and bookable, as locked), then, unless the write is an override, holds
-- and time-off in the way refuse and expired holds are released (bbo_clear_block). Returns the
-- hold.expired event rows.
-- "One of this store's customers, not erased" (storeCustomerSql): what the desk's create and a class
-- booking both require of a named customer; a relationship row is required. Refuses NOT_FOUND or
-- CUSTOMER_ERASED; null names nobody and passes.
CREATE OR REPLACE FUNCTION bbo_require_store_customer(v_store uuid, v_customer uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_erased boolean;
BEGIN
  IF v_customer IS NULL THEN RETURN; END IF;
  SELECT c.erased_at IS NOT NULL INTO v_erased
    FROM store_customers sc JOIN customers c ON c.id = sc.customer_id
   WHERE sc.store_id = v_store AND sc.customer_id = v_customer;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Customer not found');
  END IF;
  IF v_erased THEN
    PERFORM bbo_refuse('CUSTOMER_ERASED', 'The customer asked to be deleted and cannot be booked');
  END IF;
END $$;

CREATE OR REPLACE FUNCTION bbo_claim_unit_time(p_store uuid, p_unit uuid, p_bookable boolean, p_block tstzrange, p_override boolean,
  at timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT coalesce(p_bookable, false) THEN
    PERFORM bbo_refuse('UNIT_NOT_BOOKABLE', 'The unit is inactive or not bookable');
  END IF;
  IF p_override THEN
    RETURN '[]';
  END IF;
  RETURN bbo_clear_block(p_store, p_unit, lower(p_block), upper(p_block), at);
END $$;

-- Books the appointment described by the arguments into its unit. In order:
-- 1. the unit's row lock (serialises writers per unit, so holds and time-off, other tables, are
--    checked without a race, and concurrent inserts on one unit cannot deadlock in the constraint;
--    a caller holding it already, the customer's confirm, takes it again at no cost);
-- 2. a client token already used returns that appointment, reused, whatever changed since (a retry);
-- 3. bbo_claim_unit_time: bookable, then holds and time-off unless an override;
-- 4. the insert, the constraint deciding; a same-token insert that committed meanwhile is returned,
--    reused (this statement sees it: fresh snapshot).
-- Price, deposit and status are the caller's, decided by its door's rules before it calls.
CREATE OR REPLACE FUNCTION bbo_book_unit(at timestamptz, p_store uuid, p_unit uuid, p_starts timestamptz, p_ends timestamptz,
  p_block tstzrange, p_status text, p_price integer, p_deposit integer, p_currency text, p_party integer, p_source text,
  p_override boolean, p_client_token text, p_created_by text,
  p_service uuid DEFAULT NULL, p_customer uuid DEFAULT NULL, p_guest_name text DEFAULT NULL, p_guest_email text DEFAULT NULL,
  p_guest_phone text DEFAULT NULL, p_guest_note text DEFAULT NULL, p_checked_in_at timestamptz DEFAULT NULL,
  p_variant uuid DEFAULT NULL, p_addons uuid[] DEFAULT '{}',
  OUT booked appointments, OUT reused boolean, OUT event_rows jsonb)
LANGUAGE plpgsql AS $$
DECLARE
  v_bookable boolean;
BEGIN
  reused := false;
  event_rows := '[]';
  SELECT u.is_active AND u.bookable INTO v_bookable FROM units u WHERE u.store_id = p_store AND u.id = p_unit FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Unit not found');
  END IF;
  IF p_client_token IS NOT NULL THEN
    SELECT * INTO booked FROM appointments x WHERE x.store_id = p_store AND x.client_token = p_client_token;
    IF FOUND THEN
      reused := true;
      RETURN;
    END IF;
  END IF;
  event_rows := bbo_claim_unit_time(p_store, p_unit, v_bookable, p_block, p_override, at);
  INSERT INTO appointments (store_id, unit_id, service_id, variant_id, addon_ids, customer_id, guest_name, guest_email,
    guest_phone, guest_note, starts_at, ends_at, block, status, payment_status, price_pence, deposit_pence, currency, party_size, children,
    high_chairs, source, is_override, preferred_area_id, client_token, created_by, checked_in_at, created_at, updated_at)
  VALUES (p_store, p_unit, p_service, p_variant, p_addons, p_customer, p_guest_name, p_guest_email,
    p_guest_phone, p_guest_note, p_starts, p_ends, p_block, p_status, 'none', p_price, p_deposit, p_currency, p_party, 0,
    0, p_source, p_override, NULL, p_client_token, p_created_by, p_checked_in_at, at, at)
  ON CONFLICT (store_id, client_token) WHERE client_token IS NOT NULL DO NOTHING
  RETURNING * INTO booked;
  IF NOT FOUND THEN
    SELECT * INTO booked FROM appointments x WHERE x.store_id = p_store AND x.client_token = p_client_token;
    IF NOT FOUND THEN
      PERFORM bbo_refuse('CONFLICT', 'The booking collided with a concurrent request; retry it');
    END IF;
    -- Expired holds released on the way stay released, and reported.
    reused := true;
  END IF;
END $$;

-- A booking is activity with the store: the customer's relationship row, created or its last visit
-- moved on (never back). The one upsert of store_customers for a booking: the merchant's create,
-- the customer's confirm and a class booking (class-book.sql) call it (its TypeScript copy,
-- touchStoreRelationship, had no caller left and is gone). Activity of other kinds takes the row's
-- lock instead (lockRelationship, src/customers/activity/).
CREATE OR REPLACE FUNCTION bbo_touch_store_customer(p_store uuid, p_customer uuid, at timestamptz) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO store_customers (store_id, customer_id, first_seen_at, last_seen_at, updated_at)
  VALUES (p_store, p_customer, at, at, at)
  ON CONFLICT (store_id, customer_id)
  DO UPDATE SET last_seen_at = GREATEST(store_customers.last_seen_at, EXCLUDED.last_seen_at)
$$;

-- The store a door books in, and the currency its booking is priced in: refused NOT_FOUND when there
-- is no such store. The merchant's create (first, before the service) and the walk-in seat (after
-- the entry's lock) read it; a plain read, no lock.
CREATE OR REPLACE FUNCTION bbo_store_currency(v_store uuid) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  v_currency text;
BEGIN
  SELECT st.currency INTO v_currency FROM stores st WHERE st.id = v_store;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Store not found');
  END IF;
  RETURN v_currency;
END $$;
