-- bbo_class_reseat (issue 44, docs/decisions/classes.md), one rule of the class waitlist. Every write that decides
-- a seat locks the occurrence's row first (FOR UPDATE) and decides under that lock: see class-fill.sql.

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
