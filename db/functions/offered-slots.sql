-- Where a service can start, as functions of the database, so every caller runs the one rule: the
-- availability search (src/bookings/availability/availability.repository.ts) over a range of days,
-- and the customer's hold and confirm (customer-hold.sql, customer-confirm.sql) for one exact start,
-- inside their one statement. Both functions are plain SQL, STABLE and set-returning, so PostgreSQL inlines them into the calling
-- query and plans them as if written there (no per-call planning; docs/decisions/write-path.md).
--
-- How: each unit's free time is one multirange (working hours minus everything busy); each free
-- stretch [lo, hi) gives the RANGE of starts whose whole block fits it (lo + before .. hi - told -
-- after), and only the grid steps inside those ranges are generated. Steps are on the store-local
-- WALL clock (every slot_step_min from midnight); a wall time names the real instants it reads as in
-- the store's zone: none inside a spring-forward gap (01:30 on 2027-03-28 in London does not exist),
-- two inside a fall-back overlap (01:30 on 2027-10-31 happens twice and is offered once per real
-- instant). So no slot is ever an hour off, and no candidate is generated only to be thrown away
-- (docs/performance/history/availability-1.md).

-- The units a question may offer: active, bookable, with working hours; online_bookable for a
-- customer; only the one asked for, when one is. The hold locks exactly these, by id.
CREATE OR REPLACE FUNCTION bbo_offerable_units(p_store uuid, p_unit uuid, p_customer_view boolean) RETURNS SETOF units
LANGUAGE sql STABLE AS $$
  SELECT u.* FROM units u
   WHERE u.store_id = p_store AND u.is_active AND u.bookable AND u.hours_set_at IS NOT NULL
     AND (NOT p_customer_view OR u.online_bookable) AND (p_unit IS NULL OR u.id = p_unit)
$$;

-- The offered starts. p_from..p_to are store-local dates (inclusive), or both null to ask about the
-- one exact start p_at. p_customer_view: online_bookable units, online_visible services, nothing for
-- a customer the store has blocked (p_customer). Notice and horizon count from p_asked_at (null
-- leaves both out: the search applies them as it serves kept answers); holds whose expires_at is not
-- after p_now no longer block. unit_ids: the units that can take the start, comma-separated, in diary
-- order (the first is the one an "any unit" hold takes).
CREATE OR REPLACE FUNCTION bbo_offered_slots(
  p_store uuid, p_service uuid, p_variant uuid, p_addons uuid[], p_unit uuid, p_party integer,
  p_from date, p_to date, p_at timestamptz, p_customer_view boolean, p_customer uuid, p_asked_at timestamptz, p_now timestamptz)
RETURNS TABLE (date text, starts_at timestamptz, ends_at timestamptz, block_starts_at timestamptz, block_ends_at timestamptz,
               local_time text, unit_ids text)
LANGUAGE sql STABLE AS $$
WITH
  -- store: the zone and the online settings, the notice and horizon bounds, and the days asked
  -- for. No row at all when a customer asks of a store that has blocked them: it offers nothing.
  store AS (
    SELECT s.timezone AS tz, make_interval(mins => s.slot_step_min) AS step, (s.slot_step_min * 60)::float8 AS step_secs,
           COALESCE(p_asked_at + make_interval(mins => s.min_notice_min), '-infinity') AS earliest,
           COALESCE(p_asked_at + make_interval(days => s.booking_horizon_days), 'infinity') AS latest,
           COALESCE(p_from, (p_at AT TIME ZONE s.timezone)::date) AS first_day,
           COALESCE(p_to, (p_at AT TIME ZONE s.timezone)::date) AS last_day,
           COALESCE(p_from, (p_at AT TIME ZONE s.timezone)::date)::timestamp AT TIME ZONE s.timezone AS asked_from,
           (COALESCE(p_to, (p_at AT TIME ZONE s.timezone)::date) + 1)::timestamp AT TIME ZONE s.timezone AS asked_to
      FROM stores s
     WHERE s.id = p_store
       AND NOT (p_customer_view AND EXISTS (
             SELECT 1 FROM store_customers sc WHERE sc.store_id = s.id AND sc.customer_id = p_customer AND sc.blocked))
  ),
  -- service: what the customer is told (the variant's duration, or the service's, plus add-ons)
  -- and the block around it: set-up buffer before; processing time and clean-up buffer after. No
  -- row when the service is not offered (archived, hidden from customers, a party the one party rule
  -- refuses (bbo_party_fits, booking-terms.sql), an unknown or archived variant or add-on).
  service AS (
    SELECT make_interval(mins => COALESCE(v.duration_min, sv.duration_min) + ad.extra_min) AS told,
           make_interval(mins => sv.buffer_before_min) AS before,
           make_interval(mins => sv.processing_min + sv.buffer_after_min) AS after
      FROM services sv
      LEFT JOIN service_variants v ON v.store_id = sv.store_id AND v.service_id = sv.id AND v.id = p_variant AND v.is_active
      CROSS JOIN LATERAL (
        SELECT COALESCE(sum(a.extra_min), 0)::int AS extra_min, count(*)::int AS n FROM service_addons a
         WHERE a.store_id = sv.store_id AND a.service_id = sv.id AND a.id = ANY(p_addons) AND a.is_active) ad
     WHERE sv.store_id = p_store AND sv.id = p_service AND sv.is_active AND (NOT p_customer_view OR sv.online_visible)
       AND bbo_party_fits(p_party, sv.party_min, sv.party_max)
       AND (p_variant IS NULL OR v.id IS NOT NULL) AND ad.n = cardinality(p_addons)
       AND COALESCE(v.duration_min, sv.duration_min) + ad.extra_min > 0
  ),
  -- units: the units that may be offered (active, bookable, with working hours; online_bookable
  -- for a customer; the one asked for), each with its place in diary order (rank).
  units AS (
    SELECT u.id, row_number() OVER (ORDER BY u.sort, u.display_name, u.id)::int AS rank
      FROM bbo_offerable_units(p_store, p_unit, p_customer_view) u
  ),
  -- days: the store-local dates asked for and one either side (a block near midnight needs the
  -- neighbouring day's hours), each with the UTC offsets in force at its start and at its end:
  -- a zone changes offset at most once a day, so these are the only readings a wall time can have.
  days AS (
    SELECT d.day, extract(dow FROM d.day)::int AS dow, d.day BETWEEN st.first_day AND st.last_day AS asked,
           (d.day::timestamp AT TIME ZONE st.tz AT TIME ZONE st.tz) - (d.day::timestamp AT TIME ZONE st.tz AT TIME ZONE 'UTC') AS off_start,
           ((d.day + 1)::timestamp AT TIME ZONE st.tz AT TIME ZONE st.tz) - ((d.day + 1)::timestamp AT TIME ZONE st.tz AT TIME ZONE 'UTC') AS off_end
      FROM store st
      CROSS JOIN LATERAL (
        SELECT g::date AS day FROM generate_series((st.first_day - 1)::timestamp, (st.last_day + 1)::timestamp, interval '1 day') g) d
  ),
  -- day_hours: each unit's intervals on each day. A dated exception replaces that day's weekly
  -- hours; an exception without times closes the day. Read as two joins over the store's rows
  -- (not one probe per unit and day).
  day_hours AS (
    SELECT u.id AS unit_id, u.rank, d.day, d.asked, d.off_start, d.off_end, w.opens, w.closes
      FROM units u CROSS JOIN days d
      JOIN unit_hours w ON w.store_id = p_store AND w.unit_id = u.id AND w.weekday = d.dow
     WHERE NOT EXISTS (SELECT 1 FROM unit_hours_exceptions e WHERE e.store_id = p_store AND e.unit_id = u.id AND e.on_date = d.day)
    UNION ALL
    SELECT u.id, u.rank, d.day, d.asked, d.off_start, d.off_end, e.opens, e.closes
      FROM units u JOIN unit_hours_exceptions e ON e.store_id = p_store AND e.unit_id = u.id AND e.opens IS NOT NULL
      JOIN days d ON d.day = e.on_date
  ),
  -- open_time: each unit's working time as one multirange of real instants. Adjacent intervals
  -- merge, so a block may run from one into the next (and across midnight).
  open_time AS MATERIALIZED (
    SELECT dh.unit_id, dh.rank, range_agg(tstzrange(o.lo, GREATEST(o.lo, o.hi))) AS open
      FROM day_hours dh CROSS JOIN store st
      CROSS JOIN LATERAL (SELECT (dh.day + dh.opens) AT TIME ZONE st.tz AS lo, (dh.day + dh.closes) AT TIME ZONE st.tz AS hi) o
     GROUP BY dh.unit_id, dh.rank
  ),
  -- span: the instants the days cover, to bound what is read as busy.
  span AS (
    SELECT tstzrange(min(d.day)::timestamp AT TIME ZONE st.tz, (max(d.day) + 1)::timestamp AT TIME ZONE st.tz) AS r
      FROM days d CROSS JOIN store st GROUP BY st.tz
  ),
  -- busy: what occupies each unit: live appointment blocks (force-booked ones too: someone is in
  -- the chair, so it is never offered online), unreleased holds not yet expired, time-off and classes.
  busy AS MATERIALIZED (
    SELECT x.unit_id, range_agg(x.r) AS busy FROM (
      SELECT a.unit_id, a.block AS r FROM appointments a CROSS JOIN span
       WHERE a.store_id = p_store AND a.unit_id IN (SELECT id FROM units) AND bbo_live(a.status)
         AND a.block && span.r
      UNION ALL
      SELECT h.unit_id, h.block FROM holds h CROSS JOIN span
       WHERE h.store_id = p_store AND h.unit_id IN (SELECT id FROM units) AND h.released_at IS NULL
         AND (h.expires_at IS NULL OR h.expires_at > p_now) AND tstzrange(h.starts_at, h.ends_at) && span.r
      UNION ALL
      SELECT t.unit_id, tstzrange(t.starts_at, t.ends_at) FROM time_off t CROSS JOIN span
       WHERE t.store_id = p_store AND t.unit_id IN (SELECT id FROM units) AND tstzrange(t.starts_at, t.ends_at) && span.r
      UNION ALL
      -- A class its instructor teaches (live occurrences with a unit, issue 44).
      SELECT o.unit_id, tstzrange(o.starts_at, o.ends_at) FROM class_occurrences o CROSS JOIN span
       WHERE o.store_id = p_store AND o.unit_id IN (SELECT id FROM units) AND o.cancelled_at IS NULL
         AND tstzrange(o.starts_at, o.ends_at) && span.r
    ) x GROUP BY x.unit_id
  ),
  -- free: each unit's working time minus everything busy, one multirange per unit.
  free AS MATERIALIZED (
    SELECT ot.unit_id, ot.rank, ot.open - COALESCE(b.busy, '{}'::tstzmultirange) AS free
      FROM open_time ot LEFT JOIN busy b ON b.unit_id = ot.unit_id
  ),
  -- readings: how a wall time of each asked day reads as an instant: the day's UTC offset, or on a
  -- change day (the offsets at its start and end differ; a zone changes at most once a day) both of
  -- them, marked so each reading is checked.
  readings AS (
    SELECT d.day, d.off_start AS off, d.off_start <> d.off_end AS changes FROM days d WHERE d.asked
    UNION ALL
    SELECT d.day, d.off_end, true FROM days d WHERE d.asked AND d.off_start <> d.off_end
  ),
  -- room: each stretch of a unit's free time, with the range its starts may take: a block
  -- [start - before, start + told + after) lies in the stretch [lo, hi) exactly when
  -- lo + before <= start <= hi - told - after. Cut to the notice and the days asked (or to the one
  -- start asked about). No start is ever tested against free time one by one.
  room AS (
    SELECT r.unit_id, r.rank, r.first_at, r.last_at,
           (r.first_at AT TIME ZONE st.tz)::date AS first_day, (r.last_at AT TIME ZONE st.tz)::date AS last_day
      FROM (
        SELECT f.unit_id, f.rank,
               GREATEST(lower(p) + sv.before, st.earliest, st.asked_from, p_at) AS first_at,
               LEAST(upper(p) - sv.told - sv.after, st.asked_to, p_at) AS last_at
          FROM free f CROSS JOIN store st CROSS JOIN service sv CROSS JOIN LATERAL unnest(f.free) p) r
      CROSS JOIN store st
     WHERE r.first_at <= r.last_at
  ),
  -- room_days: each start range on each store-local day it touches (nearly always one), under each
  -- reading of that day, as the range of WALL times its instants read as under that offset.
  room_days AS (
    SELECT r.unit_id, r.rank, x.day, x.off, x.changes,
           GREATEST(x.day::timestamp, (r.first_at AT TIME ZONE 'UTC') + x.off) AS lo,
           LEAST((x.day + 1)::timestamp - interval '1 microsecond', (r.last_at AT TIME ZONE 'UTC') + x.off) AS hi
      FROM room r JOIN readings x ON x.day = r.first_day
    UNION ALL
    SELECT r.unit_id, r.rank, x.day, x.off, x.changes,
           GREATEST(x.day::timestamp, (r.first_at AT TIME ZONE 'UTC') + x.off),
           LEAST((x.day + 1)::timestamp - interval '1 microsecond', (r.last_at AT TIME ZONE 'UTC') + x.off)
      FROM room r JOIN readings x ON x.day > r.first_day AND x.day <= r.last_day
     WHERE r.last_day > r.first_day
  ),
  -- starts: the grid steps inside each range (every slot_step_min counted from local midnight), and
  -- the instant each names under its reading. On a change day a reading counts only if it reads
  -- back as the same wall time: none in a spring-forward gap, two in a fall-back overlap. Every start
  -- lies in working time (its block does), so it is on a working interval's grid.
  starts AS (
    SELECT s.unit_id, s.rank, s.day, s.wall, s.at FROM (
      SELECT g.unit_id, g.rank, g.day, g.changes, g.wall, (g.wall - g.off) AT TIME ZONE 'UTC' AS at FROM (
        SELECT rd.unit_id, rd.rank, rd.day, rd.off, rd.changes,
               generate_series(rd.day + make_interval(secs => ceil(date_part('epoch', rd.lo - rd.day) / st.step_secs) * st.step_secs), rd.hi, st.step) AS wall
          FROM room_days rd CROSS JOIN store st) g) s
      CROSS JOIN store st
     WHERE NOT s.changes OR (s.at AT TIME ZONE st.tz) = s.wall
  ),
  -- seating: a store with active service periods (a restaurant) seats only inside a period's
  -- window on the day, and no later than its close minus the period's last_seating_offset_min.
  seating AS (
    SELECT d.day, d.day + (p.week -> n.name ->> 'open')::time AS first_wall,
           d.day + (p.week -> n.name ->> 'close')::time - make_interval(mins => p.last_seating_offset_min) AS last_wall
      FROM days d
      CROSS JOIN LATERAL (SELECT (ARRAY['sunday','monday','tuesday','wednesday','thursday','friday','saturday'])[d.dow + 1] AS name) n
      JOIN service_periods p ON p.store_id = p_store AND p.is_active AND p.week ? n.name
  ),
  -- offered: a start whose block fits (above) is offered no sooner than the notice, before the
  -- horizon, and (for a restaurant) inside a seating window; grouped by instant with its units in
  -- diary order (the first is the one an "any unit" hold takes).
  offered AS (
    SELECT s.day, s.at, s.wall, string_agg(s.unit_id::text, ',' ORDER BY s.rank) AS unit_ids
      FROM starts s CROSS JOIN store st
     WHERE s.at >= st.earliest AND s.at < st.latest
       AND (NOT EXISTS (SELECT 1 FROM service_periods p WHERE p.store_id = p_store AND p.is_active)
            OR EXISTS (SELECT 1 FROM seating se WHERE se.day = s.day AND s.wall BETWEEN se.first_wall AND se.last_wall))
     GROUP BY s.day, s.at, s.wall
  )

-- open_time, busy and free are MATERIALIZED: computed once, never inlined into the parts that read
-- them (inlined, the multirange arithmetic of free ran once per grid instead of once per unit).
SELECT o.day::text, o.at, o.at + sv.told, o.at - sv.before, o.at + sv.told + sv.after, to_char(o.wall, 'HH24:MI'), o.unit_ids
  FROM offered o CROSS JOIN service sv
 ORDER BY o.at
$$;
