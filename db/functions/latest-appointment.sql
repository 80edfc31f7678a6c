-- A relationship's latest appointment (migration 290): store_customers.latest_appointment_at is the
-- latest start of any appointment of that customer at that store, whatever its status; NULL when the
-- account never booked there. Owner: src/bookings/appointment-search/appointment-search.repository.ts,
-- which reads it instead of probing appointments for every matching account. No write function sets
-- it: the triggers below follow every writer of appointments (create, walk-in, confirm, moves, import,
-- deletes), and a new relationship reads its appointments. Beside it, booked_here (whether it is set;
-- a CHECK of migration 290 holds the two together) keys the search's index of booked relationships.
--
-- Concurrency (READ COMMITTED; docs/decisions/search-at-scale.md): whoever changes a relationship's
-- appointments locks its row before committing and keeps the lock to the end, and computes under it:
-- "at least this start" from the row's newest version, or max() in a statement of its own after the
-- lock, whose snapshot sees every transaction that held the lock before. A relationship not yet
-- visible (the first booking's touch writes it after the appointment, or another transaction's insert
-- is not committed) is decided under an advisory lock its insert takes too (bbo_relationship_lock).

-- The advisory lock of one relationship (store, customer) while its row may not exist yet.
CREATE OR REPLACE FUNCTION bbo_relationship_lock(p_store uuid, p_customer uuid) RETURNS void
LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtext('bbo-relationship:' || p_store::text || ':' || p_customer::text))
$$;

-- Locks the relationship's row and returns whether it exists, with its latest appointment. When no row
-- is visible, asks again under the advisory lock: a relationship being inserted meanwhile holds it
-- (store_customers_latest_appointment) until it commits, so then it is seen; one inserted later waits
-- for this transaction and reads its appointments.
CREATE OR REPLACE FUNCTION bbo_relationship_for_update(p_store uuid, p_customer uuid, OUT present boolean, OUT latest timestamptz)
LANGUAGE plpgsql AS $$
BEGIN
  SELECT true, sc.latest_appointment_at INTO present, latest FROM store_customers sc
   WHERE sc.store_id = p_store AND sc.customer_id = p_customer FOR NO KEY UPDATE;
  IF present IS NULL THEN
    PERFORM bbo_relationship_lock(p_store, p_customer);
    SELECT true, sc.latest_appointment_at INTO present, latest FROM store_customers sc
     WHERE sc.store_id = p_store AND sc.customer_id = p_customer FOR NO KEY UPDATE;
  END IF;
  present := coalesce(present, false);
END $$;

-- An appointment starting at p_starts (new, or moved later in the same relationship): the latest is at
-- least it. The row is locked even when the value stands, so a concurrent recompute cannot miss it.
CREATE OR REPLACE FUNCTION bbo_latest_appointment_raise(p_store uuid, p_customer uuid, p_starts timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  SELECT * INTO r FROM bbo_relationship_for_update(p_store, p_customer);
  IF r.present AND (r.latest IS NULL OR r.latest < p_starts) THEN
    UPDATE store_customers SET latest_appointment_at = p_starts, booked_here = true
     WHERE store_id = p_store AND customer_id = p_customer;
  END IF;
END $$;

-- An appointment gone from the relationship, or moved earlier: its latest computed again. The max() is
-- a statement after the lock's, so it sees every committed change of this relationship's appointments.
CREATE OR REPLACE FUNCTION bbo_latest_appointment_recompute(p_store uuid, p_customer uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  SELECT * INTO r FROM bbo_relationship_for_update(p_store, p_customer);
  IF r.present THEN
    UPDATE store_customers sc
       SET latest_appointment_at = m.latest, booked_here = m.latest IS NOT NULL
      FROM (SELECT max(a.starts_at) AS latest FROM appointments a WHERE a.store_id = p_store AND a.customer_id = p_customer) m
     WHERE sc.store_id = p_store AND sc.customer_id = p_customer AND sc.latest_appointment_at IS DISTINCT FROM m.latest;
  END IF;
END $$;

CREATE OR REPLACE FUNCTION appointments_latest() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  same boolean := false;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    same := OLD.store_id = NEW.store_id AND OLD.customer_id IS NOT DISTINCT FROM NEW.customer_id;
  END IF;
  -- The relationship it leaves (deleted, another customer or store), or moved earlier within.
  IF TG_OP <> 'INSERT' AND OLD.customer_id IS NOT NULL THEN
    IF TG_OP = 'DELETE' OR NOT same OR NEW.starts_at < OLD.starts_at THEN
      PERFORM bbo_latest_appointment_recompute(OLD.store_id, OLD.customer_id);
    END IF;
  END IF;
  -- The relationship it is in now, unless just recomputed.
  IF TG_OP <> 'DELETE' AND NEW.customer_id IS NOT NULL THEN
    IF NOT same OR NEW.starts_at > OLD.starts_at THEN
      PERFORM bbo_latest_appointment_raise(NEW.store_id, NEW.customer_id, NEW.starts_at);
    END IF;
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER appointments_latest AFTER INSERT OR DELETE ON appointments
  FOR EACH ROW EXECUTE FUNCTION appointments_latest();
-- A status change (cancel, check-in, no-show) leaves the latest start as it was: nothing to do.
CREATE OR REPLACE TRIGGER appointments_latest_moved AFTER UPDATE OF starts_at, customer_id, store_id ON appointments
  FOR EACH ROW
  WHEN (OLD.starts_at IS DISTINCT FROM NEW.starts_at OR OLD.customer_id IS DISTINCT FROM NEW.customer_id
        OR OLD.store_id IS DISTINCT FROM NEW.store_id)
  EXECUTE FUNCTION appointments_latest();

-- A new relationship (or one given another store or customer) reads its appointments, under the
-- advisory lock, so a booking that found no row waits for this insert or is read by it. When the row
-- already exists the insert will conflict (ON CONFLICT, or refused): nothing to read, and no advisory
-- lock taken after this transaction may hold the row's (the order is always advisory, then row).
CREATE OR REPLACE FUNCTION store_customers_latest_appointment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM store_customers sc WHERE sc.store_id = NEW.store_id AND sc.customer_id = NEW.customer_id) THEN
    PERFORM bbo_relationship_lock(NEW.store_id, NEW.customer_id);
    NEW.latest_appointment_at := (SELECT max(a.starts_at) FROM appointments a
                                   WHERE a.store_id = NEW.store_id AND a.customer_id = NEW.customer_id);
    NEW.booked_here := NEW.latest_appointment_at IS NOT NULL;
  END IF;
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER store_customers_latest_appointment BEFORE INSERT OR UPDATE OF store_id, customer_id ON store_customers
  FOR EACH ROW EXECUTE FUNCTION store_customers_latest_appointment();
