-- bbo_class_booking_status (issue 44, docs/decisions/classes.md), one rule of the class waitlist. Every write that decides
-- a seat locks the occurrence's row first (FOR UPDATE) and decides under that lock: see class-fill.sql.

-- A booking's status change: cancel, check_in, no_show or accept (an offered seat). The occurrence is
-- locked before the booking (the order every seat decision takes). A cancellation of a seat (confirmed
-- or offered) promotes the next in line (bbo_class_fill). A repeat of the change already made is a
-- noop. req: {store_id, booking_id, action, customer_id (a customer's own acceptance)}
CREATE OR REPLACE FUNCTION bbo_class_booking_status(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_store uuid := (req->>'store_id')::uuid;
  v_action text := req->>'action';
  v_occurrence uuid;
  v_customer uuid;
  o class_occurrences;
  c classes;
  b class_bookings;
  v_previous text;
  v_event text;
  event_rows jsonb := '[]';
  audit_rows jsonb := '[]';
BEGIN
  SELECT x.occurrence_id, x.customer_id INTO v_occurrence, v_customer FROM class_bookings x
   WHERE x.store_id = v_store AND x.id = (req->>'booking_id')::uuid AND x.occurrence_id IS NOT NULL
     AND (req->>'customer_id' IS NULL OR x.customer_id = (req->>'customer_id')::uuid);
  IF NOT FOUND THEN
    PERFORM bbo_refuse('NOT_FOUND', 'Class booking not found');
  END IF;
  -- The occurrence's lock (bbo_lock_occurrence); the booking's store is its occurrence's (the
  -- composite foreign key), so it is always found.
  o := bbo_lock_occurrence(v_store, v_occurrence);
  SELECT * INTO c FROM classes x WHERE x.id = o.class_id;
  -- A check-in is a visit: the customer's relationship is locked before the booking, the order the
  -- activity endpoint takes them in (store-customer-aggregates.sql).
  IF v_action = 'check_in' AND v_customer IS NOT NULL THEN
    PERFORM 1 FROM store_customers sc WHERE sc.store_id = v_store AND sc.customer_id = v_customer FOR UPDATE;
  END IF;
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
      IF b.customer_id IS NOT NULL THEN
        PERFORM bbo_store_customer_refresh(v_store, b.customer_id, at, NULL, at);
      END IF;
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
