-- A unit's block: what a write occupies and what stands in its way, shared by the one-statement
-- writes that occupy a unit's time (merchant-book.sql, merchant-reschedule.sql, queue-seat.sql,
-- customer-hold.sql). Owners: src/bookings/booking-authority.ts and src/bookings/queue/queue.service.ts.

-- What a merchant's create or move occupies, and its checks: an explicit block edge wins, else the
-- service's buffers widen that side; an appointment lasts at most 24 hours and occupies at most 48
-- with its buffers (anything longer is a typo). Create and reschedule share it.
CREATE OR REPLACE FUNCTION bbo_occupied_block(req jsonb, v_starts timestamptz, v_ends timestamptz, v_before integer, v_after integer,
  OUT block_start timestamptz, OUT block_end timestamptz) LANGUAGE plpgsql AS $$
BEGIN
  block_start := coalesce((req->>'block_starts_at')::timestamptz, v_starts - make_interval(mins => coalesce(v_before, 0)));
  block_end := coalesce((req->>'block_ends_at')::timestamptz, v_ends + make_interval(mins => coalesce(v_after, 0)));
  IF NOT (v_ends > v_starts) THEN
    PERFORM bbo_refuse('INVALID_TIME_RANGE', 'ends_at must be after starts_at');
  END IF;
  IF block_start > v_starts OR block_end < v_ends THEN
    PERFORM bbo_refuse('INVALID_TIME_RANGE', 'block_starts_at/block_ends_at may only widen the appointment, never shrink it');
  END IF;
  IF v_ends - v_starts > interval '24 hours' THEN
    PERFORM bbo_refuse('APPOINTMENT_TOO_LONG', 'An appointment lasts at most 24 hours');
  END IF;
  IF block_end - block_start > interval '48 hours' THEN
    PERFORM bbo_refuse('APPOINTMENT_TOO_LONG', 'An appointment occupies its unit for at most 48 hours, buffers included');
  END IF;
END $$;

-- Expired holds whose block meets [v_bstart, v_bend) on the unit: they block nobody any more, but
-- their occupancy row (unit_occupancy, kept by occupancy.sql) would refuse the write. Released here,
-- under the unit lock the caller holds, and returned as hold.expired event rows (reported when
-- noticed). The customer's hold calls it directly.
CREATE OR REPLACE FUNCTION bbo_release_expired_holds(v_store uuid, v_unit uuid, v_bstart timestamptz, v_bend timestamptz, at timestamptz)
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

-- What stands in the way of a merchant's block on a unit (create, reschedule and the walk-in seat),
-- checked under the unit lock the caller holds: an unexpired hold or time-off refuses with
-- UNIT_UNAVAILABLE (an override never calls this), and expired holds whose block meets this one are
-- released by bbo_release_expired_holds above and returned as hold.expired event rows.
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
