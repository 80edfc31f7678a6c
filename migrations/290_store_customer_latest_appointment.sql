-- The appointment search's per-relationship record (issue 46): for each account matching the needle it
-- probed appointments to learn whether the account ever booked at this store, then for its last and
-- next visit (1,627 matches of "smith" at scale 1: 4,882 of the statement's 6,752 buffers).
-- store_customers.latest_appointment_at is the latest start of any of the customer's appointments at
-- the store, whatever its status (NULL: never booked here). It depends on writes only, never on the
-- clock: the search reads "booked here" from it, and when it is not in the future it is the last visit
-- and there is no next one; only people with a future booking are probed. Kept by the triggers of
-- db/functions/latest-appointment.sql (every writer of appointments, and a new relationship).
ALTER TABLE store_customers
  ADD COLUMN latest_appointment_at timestamptz,
  -- Whether it is set: kept beside it by the same triggers (the CHECK below holds them together), so an
  -- index on it leaves the record's other updates HOT, where one on latest_appointment_at would not; it
  -- changes only on a relationship's first booking (and its last delete). A plain column, not a
  -- generated one: adding a stored generated column rewrites the table (43 s at scale 1 here).
  ADD COLUMN booked_here boolean NOT NULL DEFAULT false;
UPDATE store_customers sc
   SET latest_appointment_at = m.latest, booked_here = true
  FROM (SELECT a.store_id, a.customer_id, max(a.starts_at) AS latest
          FROM appointments a
         WHERE a.customer_id IS NOT NULL
         GROUP BY a.store_id, a.customer_id) m
 WHERE sc.store_id = m.store_id AND sc.customer_id = m.customer_id;
ALTER TABLE store_customers ADD CONSTRAINT store_customers_booked_here CHECK (booked_here = (latest_appointment_at IS NOT NULL));
-- The search reads only the booked relationships' tokens: at scale 1, "olivia" matched 4,078 of the
-- flagship's relationships on 3,301 heap pages, of which 3,782 never booked there (round 18).
CREATE INDEX store_customers_booked_search_tokens ON store_customers USING gin (search_tokens) WHERE booked_here;
