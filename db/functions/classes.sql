-- Classes (issue 44): how a class, an occurrence and a class booking read, and the timetable's writes
-- (scheduling occurrences, cancelling one). The waitlist's writes are in class-waitlist.sql.
-- Owner: src/classes/ (classes.service.ts, occurrences.service.ts). docs/decisions/classes.md.

-- A class as the API presents it (ClassRecord in src/classes/classes.schemas.ts).
CREATE OR REPLACE FUNCTION bbo_class_json(c classes) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', c.id, 'name', c.name, 'category', c.category, 'duration_min', c.duration_min,
    'capacity', c.capacity, 'instructor_unit_id', c.instructor_unit_id, 'price_pence', c.price_pence,
    'waitlist_mode', c.waitlist_mode, 'offer_minutes', c.offer_minutes, 'promotion_cutoff_minutes', c.promotion_cutoff_minutes,
    'archived', c.archived, 'created_at', bbo_iso(c.created_at), 'updated_at', bbo_iso(c.updated_at))
$$;

-- Seats an occurrence's bookings hold: booked (confirmed and attended) and offered (promotion_pending)
-- take a seat; waitlisted wait. Read under the occurrence's lock by every write that decides a seat.
CREATE OR REPLACE FUNCTION bbo_class_counts(v_occurrence uuid, OUT booked integer, OUT offered integer, OUT waitlisted integer)
LANGUAGE sql STABLE AS $$
  SELECT count(*) FILTER (WHERE b.status IN ('confirmed', 'attended'))::integer,
         count(*) FILTER (WHERE b.status = 'promotion_pending')::integer,
         count(*) FILTER (WHERE b.status = 'waitlisted')::integer
    FROM class_bookings b WHERE b.occurrence_id = v_occurrence
$$;

-- Seats taken (booked and offered), the one count a seat decision needs: it reads only the seat
-- holders through class_bookings_occurrence (occurrence_id, status), however long the waitlist.
CREATE OR REPLACE FUNCTION bbo_class_seats_taken(v_occurrence uuid) RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT count(*)::integer FROM class_bookings b
   WHERE b.occurrence_id = v_occurrence AND b.status IN ('confirmed', 'attended', 'promotion_pending')
$$;

-- An occurrence as the API presents it (Occurrence in src/classes/occurrences.schemas.ts): its capacity
-- is its own or the class's; seats_left never below 0.
CREATE OR REPLACE FUNCTION bbo_class_occurrence_json(o class_occurrences, c classes) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', o.id, 'class_id', o.class_id, 'name', c.name, 'category', c.category,
    'starts_at', bbo_iso(o.starts_at), 'ends_at', bbo_iso(o.ends_at),
    'instructor_unit_id', coalesce(o.instructor_unit_id, o.unit_id), 'capacity', coalesce(o.capacity, c.capacity),
    'booked', n.booked, 'offered', n.offered, 'waitlisted', n.waitlisted,
    'seats_left', greatest(0, coalesce(o.capacity, c.capacity) - n.booked - n.offered),
    'waitlist_mode', c.waitlist_mode, 'cancelled', o.cancelled_at IS NOT NULL, 'cancelled_at', bbo_iso(o.cancelled_at))
    FROM bbo_class_counts(o.id) n
$$;

-- A class booking as the API presents it (ClassBookingRecord in src/classes/class-bookings.schemas.ts).
-- The table keeps the spec's 'drop-in'; the class API writes drop_in.
CREATE OR REPLACE FUNCTION bbo_class_booking_json(b class_bookings, o class_occurrences) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', b.id, 'occurrence_id', b.occurrence_id, 'class_id', o.class_id,
    'customer_id', b.customer_id, 'guest_name', b.guest_name, 'guest_email', b.guest_email,
    'source', replace(b.booking_source, '-', '_'), 'status', b.status, 'waitlist_position', b.waitlist_position,
    'offer_expires_at', bbo_iso(b.offer_expires_at), 'promoted_at', bbo_iso(b.promoted_at),
    'attended_at', bbo_iso(b.attended_at), 'no_show_marked_at', bbo_iso(b.no_show_marked_at),
    'cancelled_at', bbo_iso(b.cancelled_at), 'created_at', bbo_iso(b.created_at),
    'starts_at', bbo_iso(o.starts_at), 'ends_at', bbo_iso(o.ends_at))
$$;

-- The lock every seat decision of an occurrence takes, in every process (booking, cancelling it,
-- the waitlist's moves): the occurrence row FOR UPDATE, or NOT_FOUND for another store's or none.
CREATE OR REPLACE FUNCTION bbo_lock_occurrence(v_store uuid, v_id uuid) RETURNS class_occurrences
LANGUAGE plpgsql AS $$
DECLARE
  o class_occurrences;
BEGIN
  SELECT * INTO o FROM class_occurrences x WHERE x.store_id = v_store AND x.id = v_id FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Occurrence not found');
  END IF;
  RETURN o;
END $$;

-- Schedules occurrences of a class: one start, or the same store-local wall time for `weeks` weeks
-- (so 18:00 stays 18:00 across a clock change). All or nothing. Under the unit's row lock (the lock
-- every writer of the unit's time takes) time-off and live holds refuse (bbo_clear_block, UNIT_UNAVAILABLE)
-- and the insert's occupancy row meets the exclusion constraint: an appointment in the way is a 23P01,
-- mapped to SLOT_TAKEN by src/classes/occurrences.service.ts.
-- req: {store_id, class_id, starts_at, weeks, instructor_unit_id, capacity}
CREATE OR REPLACE FUNCTION bbo_class_schedule(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_store uuid := (req->>'store_id')::uuid;
  v_first timestamptz := (req->>'starts_at')::timestamptz;
  v_weeks integer := coalesce((req->>'weeks')::integer, 1);
  v_own_unit uuid := (req->>'instructor_unit_id')::uuid;
  v_unit uuid;
  v_zone text;
  c classes;
  o class_occurrences;
  v_start timestamptz;
  presented jsonb := '[]';
  audit_rows jsonb := '[]';
  event_rows jsonb := '[]';
BEGIN
  SELECT * INTO c FROM classes x WHERE x.store_id = v_store AND x.id = (req->>'class_id')::uuid FOR SHARE;
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Class not found');
  END IF;
  IF c.archived THEN
    PERFORM bbo_refuse('CLASS_ARCHIVED', 'The class is archived: restore it before scheduling it');
  END IF;
  IF v_first <= at THEN
    PERFORM bbo_refuse('OCCURRENCE_IN_PAST', 'starts_at must be in the future');
  END IF;
  v_unit := coalesce(v_own_unit, c.instructor_unit_id);
  IF v_unit IS NOT NULL THEN
    -- The unit lock (lockUnits in src/bookings/booking-authority.ts): time-off and holds are checked
    -- without a race, and concurrent writers on the unit cannot deadlock in the constraint.
    PERFORM 1 FROM units u WHERE u.store_id = v_store AND u.id = v_unit FOR UPDATE;
    IF NOT FOUND THEN
      PERFORM bbo_refuse('NOT_FOUND', 'Instructor unit not found');
    END IF;
  END IF;
  SELECT s.timezone INTO v_zone FROM stores s WHERE s.id = v_store;
  FOR i IN 0 .. v_weeks - 1 LOOP
    v_start := ((v_first AT TIME ZONE v_zone) + make_interval(days => 7 * i)) AT TIME ZONE v_zone;
    IF v_unit IS NOT NULL THEN
      event_rows := event_rows || bbo_clear_block(v_store, v_unit, v_start, v_start + make_interval(mins => c.duration_min), at);
    END IF;
    INSERT INTO class_occurrences (store_id, class_id, starts_at, ends_at, instructor_unit_id, unit_id, capacity, created_at)
    VALUES (v_store, c.id, v_start, v_start + make_interval(mins => c.duration_min), v_own_unit, v_unit, (req->>'capacity')::integer, at)
    ON CONFLICT (store_id, class_id, starts_at) WHERE cancelled_at IS NULL DO NOTHING
    RETURNING * INTO o;
    IF NOT FOUND THEN
      PERFORM bbo_refuse('OCCURRENCE_EXISTS', format('The class is already scheduled at %s', bbo_iso(v_start)));
    END IF;
    presented := presented || jsonb_build_array(bbo_class_occurrence_json(o, c));
    audit_rows := audit_rows || jsonb_build_array(bbo_audit_row(actor, at, 'class_occurrence.created', 'class_occurrence', o.id::text,
      jsonb_build_object('class_id', c.id, 'starts_at', bbo_iso(o.starts_at), 'unit_id', o.unit_id)));
  END LOOP;
  RETURN jsonb_build_object('replayed', false,
    'body', bbo_write_finish(claim, at, jsonb_build_object('occurrences', presented), audit_rows, event_rows, actor));
END $$;

-- Cancels an occurrence: its time is freed (the occupancy row goes with cancelled_at) and every live
-- booking is cancelled and told (class.booking.cancelled, reason occurrence_cancelled). Cancelling
-- one already cancelled changes nothing. req: {store_id, occurrence_id}
CREATE OR REPLACE FUNCTION bbo_class_occurrence_cancel(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_store uuid := (req->>'store_id')::uuid;
  o class_occurrences;
  c classes;
  event_rows jsonb := '[]';
  audit_rows jsonb := '[]';
BEGIN
  o := bbo_lock_occurrence(v_store, (req->>'occurrence_id')::uuid);
  SELECT * INTO c FROM classes x WHERE x.id = o.class_id;
  IF o.cancelled_at IS NULL THEN
    UPDATE class_occurrences x SET cancelled_at = at WHERE x.id = o.id RETURNING * INTO o;
    WITH cancelled AS (
      UPDATE class_bookings b SET status = 'cancelled', cancelled_at = at, updated_at = at
       WHERE b.occurrence_id = o.id AND b.status IN ('confirmed', 'waitlisted', 'promotion_pending')
      RETURNING b.*)
    SELECT coalesce(jsonb_agg(bbo_event(v_store, 'class.booking.cancelled', at,
             bbo_class_booking_json(b, o) || jsonb_build_object('reason', 'occurrence_cancelled')) ORDER BY b.created_at, b.id), '[]')
      INTO event_rows FROM cancelled b;
    audit_rows := jsonb_build_array(bbo_audit_row(actor, at, 'class_occurrence.cancelled', 'class_occurrence', o.id::text,
      jsonb_build_object('class_id', o.class_id, 'starts_at', bbo_iso(o.starts_at), 'bookings_cancelled', jsonb_array_length(event_rows))));
  END IF;
  RETURN jsonb_build_object('replayed', false,
    'body', bbo_write_finish(claim, at, jsonb_build_object('occurrence', bbo_class_occurrence_json(o, c)), audit_rows, event_rows, actor));
END $$;
