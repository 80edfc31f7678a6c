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
