-- Class bookings and the waitlist (issue 44, docs/decisions/classes.md). Every write that decides a
-- seat locks the occurrence's row first (FOR UPDATE) and decides under that lock, in one statement
-- of one plpgsql function: a booking, a cancellation, an acceptance, a capacity change and the offer
-- sweep of one occurrence serialise, in every process, so
--   - confirmed + promotion_pending never exceeds the capacity (counted under the lock, never before it),
--   - waitlist positions are handed out from the row's own counter, in commit order, with no gap or repeat,
--   - a freed seat promotes exactly one person, the first in line, and nobody twice.
-- Owner: src/classes/class-bookings.service.ts and src/classes/offer-sweep.ts.

-- Fills free seats of a locked occurrence from its waitlist, first position first: offers past their
-- expiry lapse first (promotion_expired, class.booking.offer_expired), then each free seat promotes one
-- person: confirmed at once (auto) or offered for offer_minutes (offer). Within the class's
-- promotion_cutoff_minutes of the start, or once it started, nobody is promoted. The caller holds the
-- occurrence's lock. Returns the event rows.
CREATE OR REPLACE FUNCTION bbo_class_fill(o class_occurrences, c classes, at timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  event_rows jsonb;
  b class_bookings;
  v_free integer;
BEGIN
  WITH lapsed AS (
    UPDATE class_bookings x SET status = 'promotion_expired', updated_at = at
     WHERE x.occurrence_id = o.id AND x.status = 'promotion_pending' AND x.offer_expires_at <= at
    RETURNING x.*)
  SELECT coalesce(jsonb_agg(bbo_event(o.store_id, 'class.booking.offer_expired', at, bbo_class_booking_json(l, o))
           ORDER BY l.waitlist_position), '[]') INTO event_rows FROM lapsed l;
  IF o.cancelled_at IS NOT NULL OR at >= o.starts_at - make_interval(mins => c.promotion_cutoff_minutes) THEN
    RETURN event_rows;
  END IF;
  v_free := coalesce(o.capacity, c.capacity) - bbo_class_seats_taken(o.id);
  WHILE v_free > 0 LOOP
    UPDATE class_bookings x
       SET status = CASE WHEN c.waitlist_mode = 'auto' THEN 'confirmed' ELSE 'promotion_pending' END,
           offer_expires_at = CASE WHEN c.waitlist_mode = 'auto' THEN NULL ELSE at + make_interval(mins => c.offer_minutes) END,
           promoted_at = at, updated_at = at
     WHERE x.id = (SELECT y.id FROM class_bookings y WHERE y.occurrence_id = o.id AND y.status = 'waitlisted'
                    ORDER BY y.waitlist_position LIMIT 1)
    RETURNING x.* INTO b;
    EXIT WHEN NOT FOUND;
    event_rows := event_rows || jsonb_build_array(bbo_event(o.store_id, 'class.booking.promoted', at, bbo_class_booking_json(b, o)));
    v_free := v_free - 1;
  END LOOP;
  RETURN event_rows;
END $$;

-- Books a person into an occurrence: confirmed while a seat is free, else waitlisted with the next
-- position; a full occurrence within its promotion cutoff takes no more (CLASS_FULL).
-- req: {store_id, occurrence_id, customer_id, guest_name, guest_email, source}
CREATE OR REPLACE FUNCTION bbo_class_book(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  stored jsonb;
  v_store uuid := (req->>'store_id')::uuid;
  v_customer uuid := (req->>'customer_id')::uuid;
  v_email text := req->>'guest_email';
  v_source text := replace(req->>'source', '_', '-');
  o class_occurrences;
  c classes;
  b class_bookings;
  v_zone text;
  v_class_instructor text;
  v_own_instructor text;
  v_position integer;
  v_status text;
  event_rows jsonb;
  presented jsonb;
BEGIN
  stored := bbo_idempotency_claim(claim, at);
  IF stored IS NOT NULL THEN
    RETURN jsonb_build_object('replayed', true, 'body', stored);
  END IF;
  o := bbo_lock_occurrence(v_store, (req->>'occurrence_id')::uuid);
  SELECT * INTO c FROM classes x WHERE x.id = o.class_id;
  IF o.cancelled_at IS NOT NULL THEN
    PERFORM bbo_refuse('OCCURRENCE_CANCELLED', 'The class was cancelled and takes no bookings');
  END IF;
  -- A drop-in may join until the class ends; anyone else until it starts.
  IF at >= o.ends_at OR (at >= o.starts_at AND v_source <> 'drop-in') THEN
    PERFORM bbo_refuse('CLASS_STARTED', 'The class has started and takes no more bookings');
  END IF;
  PERFORM bbo_require_store_customer(v_store, v_customer);
  -- One live booking per person (the unique indexes of migration 230 are the backstop).
  PERFORM 1 FROM class_bookings x
   WHERE x.occurrence_id = o.id AND x.status IN ('confirmed', 'waitlisted', 'promotion_pending', 'attended')
     AND ((v_customer IS NOT NULL AND x.customer_id = v_customer)
       OR (v_customer IS NULL AND x.customer_id IS NULL AND lower(x.guest_email) = lower(v_email)));
  IF FOUND THEN
    PERFORM bbo_refuse('ALREADY_BOOKED', 'This person already has a booking or a waitlist place for this class');
  END IF;

  -- Lapsed offers first, and anyone waiting for a free seat before a newcomer takes it.
  event_rows := bbo_class_fill(o, c, at);
  IF coalesce(o.capacity, c.capacity) - bbo_class_seats_taken(o.id) > 0 THEN
    v_status := 'confirmed';
  ELSIF at >= o.starts_at - make_interval(mins => c.promotion_cutoff_minutes) THEN
    PERFORM bbo_refuse('CLASS_FULL', 'The class is full and too close to its start to join the waitlist');
  ELSE
    v_status := 'waitlisted';
    UPDATE class_occurrences x SET last_waitlist_position = x.last_waitlist_position + 1 WHERE x.id = o.id
    RETURNING x.last_waitlist_position INTO v_position;
  END IF;

  SELECT s.timezone INTO v_zone FROM stores s WHERE s.id = v_store;
  SELECT u.display_name INTO v_class_instructor FROM units u WHERE u.store_id = v_store AND u.id = c.instructor_unit_id;
  SELECT u.display_name INTO v_own_instructor FROM units u WHERE u.store_id = v_store AND u.id = o.instructor_unit_id;
  -- The columns attendance and the journey read (migration 006), filled as the activity endpoint fills them.
  INSERT INTO class_bookings (store_id, customer_id, status, booking_date, booking_source, class_name, class_category,
    class_instructor_name, occurrence_instructor_name, scheduled_date, start_time, end_time, created_at,
    occurrence_id, guest_name, guest_email, waitlist_position, updated_at)
  VALUES (v_store, v_customer, v_status, (at AT TIME ZONE v_zone)::date, v_source, c.name, c.category,
    v_class_instructor, v_own_instructor, (o.starts_at AT TIME ZONE v_zone)::date, (o.starts_at AT TIME ZONE v_zone)::time,
    (o.ends_at AT TIME ZONE v_zone)::time, at, o.id,
    CASE WHEN v_customer IS NULL THEN req->>'guest_name' END, CASE WHEN v_customer IS NULL THEN v_email END, v_position, at)
  RETURNING * INTO b;
  IF v_customer IS NOT NULL THEN
    -- A booking is activity with the store (touchStoreRelationship).
    INSERT INTO store_customers (store_id, customer_id, first_seen_at, last_seen_at, updated_at)
    VALUES (v_store, v_customer, at, at, at)
    ON CONFLICT (store_id, customer_id) DO UPDATE SET last_seen_at = GREATEST(store_customers.last_seen_at, EXCLUDED.last_seen_at);
  END IF;
  presented := bbo_class_booking_json(b, o);
  event_rows := event_rows || jsonb_build_array(bbo_event(v_store,
    CASE WHEN v_status = 'confirmed' THEN 'class.booking.created' ELSE 'class.booking.waitlisted' END, at, presented));
  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at, jsonb_build_object('booking', presented),
    jsonb_build_array(bbo_audit_row(actor, at, 'class_booking.created', 'class_booking', b.id::text,
      jsonb_build_object('occurrence_id', o.id, 'status', b.status, 'waitlist_position', b.waitlist_position, 'source', b.booking_source,
        'store_id', v_store))),
    event_rows, actor));
END $$;

-- A booking's status change: cancel, check_in, no_show or accept (an offered seat). The occurrence is
-- locked before the booking (the order every seat decision takes). A cancellation of a seat (confirmed
-- or offered) promotes the next in line (bbo_class_fill). A repeat of the change already made is a
-- noop. req: {store_id, booking_id, action, customer_id (a customer's own acceptance)}
CREATE OR REPLACE FUNCTION bbo_class_booking_status(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  stored jsonb;
  v_store uuid := (req->>'store_id')::uuid;
  v_action text := req->>'action';
  v_occurrence uuid;
  o class_occurrences;
  c classes;
  b class_bookings;
  v_previous text;
  v_event text;
  event_rows jsonb := '[]';
  audit_rows jsonb := '[]';
BEGIN
  stored := bbo_idempotency_claim(claim, at);
  IF stored IS NOT NULL THEN
    RETURN jsonb_build_object('replayed', true, 'body', stored);
  END IF;
  SELECT x.occurrence_id INTO v_occurrence FROM class_bookings x
   WHERE x.store_id = v_store AND x.id = (req->>'booking_id')::uuid AND x.occurrence_id IS NOT NULL
     AND (req->>'customer_id' IS NULL OR x.customer_id = (req->>'customer_id')::uuid);
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Class booking not found');
  END IF;
  SELECT * INTO o FROM class_occurrences x WHERE x.id = v_occurrence FOR UPDATE;
  SELECT * INTO c FROM classes x WHERE x.id = o.class_id;
  SELECT * INTO b FROM class_bookings x WHERE x.id = (req->>'booking_id')::uuid FOR UPDATE;
  v_previous := b.status;

  IF v_action = 'cancel' THEN
    IF b.status NOT IN ('cancelled', 'confirmed', 'waitlisted', 'promotion_pending') THEN
      PERFORM bbo_refuse('INVALID_TRANSITION', format('A %s booking cannot be cancelled', b.status));
    END IF;
    IF b.status <> 'cancelled' THEN
      UPDATE class_bookings x SET status = 'cancelled', cancelled_at = at, updated_at = at WHERE x.id = b.id RETURNING * INTO b;
      v_event := 'class.booking.cancelled';
    END IF;
  ELSIF v_action = 'check_in' THEN
    IF o.cancelled_at IS NOT NULL OR b.status NOT IN ('attended', 'confirmed') THEN
      PERFORM bbo_refuse('INVALID_TRANSITION', format('A %s booking cannot be checked in', CASE WHEN o.cancelled_at IS NOT NULL THEN 'cancelled class''s' ELSE b.status END));
    END IF;
    IF b.status = 'confirmed' THEN
      UPDATE class_bookings x SET status = 'attended', attended_at = at, updated_at = at WHERE x.id = b.id RETURNING * INTO b;
      v_event := 'class.booking.attended';
    END IF;
  ELSIF v_action = 'no_show' THEN
    IF b.status = 'attended' THEN
      PERFORM bbo_refuse('ALREADY_CHECKED_IN', 'A checked-in booking cannot be a no-show');
    END IF;
    IF b.status NOT IN ('no_show', 'confirmed') OR o.cancelled_at IS NOT NULL THEN
      PERFORM bbo_refuse('INVALID_TRANSITION', format('A %s booking cannot be a no-show', b.status));
    END IF;
    IF at < o.starts_at THEN
      PERFORM bbo_refuse('NOT_YET_DUE', 'A no-show cannot be marked before the class starts');
    END IF;
    IF b.status = 'confirmed' THEN
      UPDATE class_bookings x SET status = 'no_show', no_show_marked_at = at, updated_at = at WHERE x.id = b.id RETURNING * INTO b;
      v_event := 'class.booking.no_show';
    END IF;
  ELSIF v_action = 'accept' THEN
    IF b.status = 'promotion_expired' OR (b.status = 'promotion_pending' AND b.offer_expires_at <= at) THEN
      PERFORM bbo_refuse('OFFER_EXPIRED', 'The offer of a seat has expired; the seat went to the next in line');
    END IF;
    IF NOT (b.status = 'promotion_pending' OR (b.status = 'confirmed' AND b.promoted_at IS NOT NULL)) THEN
      PERFORM bbo_refuse('NO_OFFER', format('A %s booking has no offer to accept', b.status));
    END IF;
    IF b.status = 'promotion_pending' THEN
      UPDATE class_bookings x SET status = 'confirmed', updated_at = at WHERE x.id = b.id RETURNING * INTO b;
      v_event := 'class.booking.accepted';
    END IF;
  ELSE
    PERFORM bbo_refuse('VALIDATION_FAILED', 'Unknown action');
  END IF;

  IF v_event IS NOT NULL THEN
    event_rows := jsonb_build_array(bbo_event(v_store, v_event, at,
      bbo_class_booking_json(b, o) || jsonb_build_object('previous', jsonb_build_object('status', v_previous))));
    audit_rows := jsonb_build_array(bbo_audit_row(actor, at, 'class_booking.' || v_action, 'class_booking', b.id::text,
      jsonb_build_object('occurrence_id', o.id, 'from', v_previous, 'to', b.status, 'store_id', v_store)));
    -- A seat freed (a confirmed or offered booking cancelled) goes to the first in line.
    IF v_action = 'cancel' AND v_previous IN ('confirmed', 'promotion_pending') THEN
      event_rows := event_rows || bbo_class_fill(o, c, at);
    END IF;
  END IF;
  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
    jsonb_build_object('booking', bbo_class_booking_json(b, o), 'noop', v_event IS NULL), audit_rows, event_rows, actor));
END $$;

-- A capacity change, of one occurrence (req.occurrence_id: its own capacity, null = the class's) or
-- of a class (req.class_id: every future live occurrence without its own). Each occurrence it
-- reaches is locked in id order; a capacity below the seats taken (booked and offered) in any of
-- them refuses (CAPACITY_BELOW_BOOKED) and changes nothing; a raised one promotes from the waitlist.
-- Called inside the class PATCH's transaction (src/classes/classes.service.ts) or as a write of its own.
-- Returns the event rows.
CREATE OR REPLACE FUNCTION bbo_class_reseat(v_store uuid, v_class uuid, v_occurrence uuid, v_capacity integer, v_set boolean, at timestamptz)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  o class_occurrences;
  c classes;
  event_rows jsonb := '[]';
BEGIN
  FOR o IN
    SELECT * FROM class_occurrences x
     WHERE x.store_id = v_store AND x.cancelled_at IS NULL
       AND ((v_occurrence IS NOT NULL AND x.id = v_occurrence)
         OR (v_occurrence IS NULL AND x.class_id = v_class AND x.capacity IS NULL AND x.ends_at > at))
     ORDER BY x.id FOR UPDATE
  LOOP
    IF v_set THEN
      UPDATE class_occurrences x SET capacity = v_capacity WHERE x.id = o.id RETURNING * INTO o;
    END IF;
    SELECT * INTO c FROM classes x WHERE x.id = o.class_id;
    IF coalesce(o.capacity, c.capacity) < bbo_class_seats_taken(o.id) THEN
      PERFORM bbo_refuse('CAPACITY_BELOW_BOOKED', format('The occurrence at %s already has %s seats booked or offered', bbo_iso(o.starts_at), bbo_class_seats_taken(o.id)));
    END IF;
    event_rows := event_rows || bbo_class_fill(o, c, at);
  END LOOP;
  RETURN event_rows;
END $$;

-- An occurrence's own capacity (PATCH /api/v1/classes/occurrences/{id}) as one write.
-- req: {store_id, occurrence_id, capacity (null: the class's)}
CREATE OR REPLACE FUNCTION bbo_class_occurrence_capacity(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  stored jsonb;
  v_store uuid := (req->>'store_id')::uuid;
  o class_occurrences;
  c classes;
  event_rows jsonb;
BEGIN
  stored := bbo_idempotency_claim(claim, at);
  IF stored IS NOT NULL THEN
    RETURN jsonb_build_object('replayed', true, 'body', stored);
  END IF;
  PERFORM 1 FROM class_occurrences x WHERE x.store_id = v_store AND x.id = (req->>'occurrence_id')::uuid;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Occurrence not found');
  END IF;
  event_rows := bbo_class_reseat(v_store, NULL, (req->>'occurrence_id')::uuid, (req->>'capacity')::integer, true, at);
  SELECT * INTO o FROM class_occurrences x WHERE x.id = (req->>'occurrence_id')::uuid;
  SELECT * INTO c FROM classes x WHERE x.id = o.class_id;
  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
    jsonb_build_object('occurrence', bbo_class_occurrence_json(o, c)),
    jsonb_build_array(bbo_audit_row(actor, at, 'class_occurrence.capacity_changed', 'class_occurrence', o.id::text,
      jsonb_build_object('capacity', o.capacity))),
    event_rows, actor));
END $$;

-- The offer sweep (src/classes/offer-sweep.ts, run beside the deposit sweep): occurrences with an
-- offer past its expiry, oldest first, at most max_occurrences a run, each locked (SKIP LOCKED: one a
-- write holds is that write's to settle, bbo_class_fill runs inside it) and filled: the lapsed offer
-- becomes promotion_expired and the next in line is offered. State lives in the rows, so a restart
-- loses nothing. Returns how many occurrences it settled.
CREATE OR REPLACE FUNCTION bbo_class_expire_offers(at timestamptz, max_occurrences integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  o class_occurrences;
  c classes;
  v_done integer := 0;
BEGIN
  FOR o IN
    SELECT * FROM class_occurrences x
     WHERE x.id IN (SELECT b.occurrence_id FROM class_bookings b
                     WHERE b.status = 'promotion_pending' AND b.offer_expires_at <= at
                     ORDER BY b.offer_expires_at LIMIT max_occurrences)
     ORDER BY x.id FOR UPDATE SKIP LOCKED
  LOOP
    SELECT * INTO c FROM classes x WHERE x.id = o.class_id;
    PERFORM bbo_write_finish(NULL, at, '{}'::jsonb, '[]'::jsonb, bbo_class_fill(o, c, at));
    v_done := v_done + 1;
  END LOOP;
  RETURN v_done;
END $$;
