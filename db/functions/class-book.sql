-- bbo_class_book (issue 44, docs/decisions/classes.md), one rule of the class waitlist. Every write that decides
-- a seat locks the occurrence's row first (FOR UPDATE) and decides under that lock: see class-fill.sql.

-- Books a person into an occurrence: confirmed while a seat is free, else waitlisted with the next
-- position; a full occurrence within its promotion cutoff takes no more (CLASS_FULL).
-- The booking page's door (req.customer_door, a signed-in customer booking themselves) refuses a
-- customer the shop blocked, as the page's appointment confirm does, and makes the customer one of
-- the store's first (a sign-in alone does not).
-- req: {store_id, occurrence_id, customer_id, guest_name, guest_email, source, customer_door}
CREATE OR REPLACE FUNCTION bbo_class_book(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
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
  o := bbo_lock_occurrence(v_store, (req->>'occurrence_id')::uuid);
  SELECT * INTO c FROM classes x WHERE x.id = o.class_id;
  IF o.cancelled_at IS NOT NULL THEN
    PERFORM bbo_refuse('OCCURRENCE_CANCELLED', 'The class was cancelled and takes no bookings');
  END IF;
  -- A drop-in may join until the class ends; anyone else until it starts.
  IF at >= o.ends_at OR (at >= o.starts_at AND v_source <> 'drop-in') THEN
    PERFORM bbo_refuse('CLASS_STARTED', 'The class has started and takes no more bookings');
  END IF;
  IF coalesce((req->>'customer_door')::boolean, false) THEN
    PERFORM 1 FROM store_customers sc WHERE sc.store_id = v_store AND sc.customer_id = v_customer AND sc.blocked;
    IF FOUND THEN
      PERFORM bbo_refuse('CUSTOMER_BLOCKED', 'The shop does not take online bookings from this customer');
    END IF;
    PERFORM bbo_touch_store_customer(v_store, v_customer, at);
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
    -- A booking is activity with the store: the one upsert (bbo_touch_store_customer, book-unit.sql).
    PERFORM bbo_touch_store_customer(v_store, v_customer, at);
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
