-- bbo_class_expire_offers (issue 44, docs/decisions/classes.md), one rule of the class waitlist. Every write that decides
-- a seat locks the occurrence's row first (FOR UPDATE) and decides under that lock: see class-fill.sql.

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
