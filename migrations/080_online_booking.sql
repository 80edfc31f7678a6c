-- Online booking: working hours, customer holds at checkout, and one occupancy table whose exclusion
-- constraint keeps holds and appointments apart (see docs/decisions/availability.md).

-- Working hours, store-local. A unit is offered online only once hours were set (hours_set_at);
-- staff can still book a unit without hours.
ALTER TABLE units ADD COLUMN hours_set_at timestamptz;

CREATE TABLE unit_hours (
  store_id uuid NOT NULL,
  unit_id  uuid NOT NULL,
  -- 0 = Sunday .. 6 = Saturday, as extract(dow ...) counts.
  weekday  smallint NOT NULL CHECK (weekday BETWEEN 0 AND 6),
  opens    time NOT NULL,
  -- 24:00 is allowed as a close: open until midnight.
  closes   time NOT NULL,
  CHECK (closes > opens),
  FOREIGN KEY (store_id, unit_id) REFERENCES units (store_id, id)
);
CREATE INDEX unit_hours_unit ON unit_hours (store_id, unit_id, weekday);

-- A dated exception replaces the weekly hours of that day. A row with no times means closed.
CREATE TABLE unit_hours_exceptions (
  store_id uuid NOT NULL,
  unit_id  uuid NOT NULL,
  on_date  date NOT NULL,
  opens    time,
  closes   time,
  CHECK ((opens IS NULL) = (closes IS NULL)),
  CHECK (closes > opens),
  FOREIGN KEY (store_id, unit_id) REFERENCES units (store_id, id)
);
CREATE INDEX unit_hours_exceptions_unit ON unit_hours_exceptions (store_id, unit_id, on_date);

-- The cancellation window is already on stores; CORS origins are searched by the preflight check.
CREATE INDEX stores_cors_origins ON stores USING gin (cors_origins);

-- Holds become customer checkouts: who holds, for what, the occupied block (with buffers), how the
-- unit was picked, and how the hold ended (released, expired, confirmed, superseded).
ALTER TABLE holds
  ADD COLUMN customer_id    uuid REFERENCES customers (id),
  ADD COLUMN service_id     uuid,
  ADD COLUMN variant_id     uuid,
  ADD COLUMN addon_ids      uuid[] NOT NULL DEFAULT '{}',
  ADD COLUMN party_size     integer NOT NULL DEFAULT 1 CHECK (party_size >= 1),
  ADD COLUMN block          tstzrange,
  ADD COLUMN unit_choice    text CHECK (unit_choice IN ('asked', 'first_free')),
  ADD COLUMN release_reason text CHECK (release_reason IN ('released', 'expired', 'confirmed', 'superseded')),
  ADD COLUMN appointment_id uuid;
UPDATE holds SET block = tstzrange(starts_at, ends_at) WHERE block IS NULL;
CREATE INDEX holds_customer ON holds (customer_id) WHERE customer_id IS NOT NULL;
-- The deposit sweep finds unpaid online bookings by age.
CREATE INDEX appointments_pending_payment ON appointments (created_at) WHERE status = 'pending_payment';

-- A hold's block defaults to its told range: the trigger holds_default_block, db/functions/occupancy.sql.
ALTER TABLE holds ADD CONSTRAINT holds_block_covers CHECK (block IS NULL OR (lower(block) <= starts_at AND upper(block) >= ends_at));

-- Everything that occupies a unit's time: live appointments and unreleased holds, one row each,
-- kept by the triggers of db/functions/occupancy.sql. The exclusion constraint is the guarantee:
-- two customers racing for a slot end with one hold, a hold never overlaps a live appointment, and the reverse. Override
-- appointments are not here (force-booked, they block nobody). Expiry depends on now, which no
-- constraint can read, so an expired hold stays here until a writer that needs the time releases it
-- under the unit lock (the booking authority does, emitting hold.expired); readers ignore expired holds.
CREATE TABLE unit_occupancy (
  store_id       uuid NOT NULL,
  unit_id        uuid NOT NULL,
  block          tstzrange NOT NULL,
  appointment_id uuid UNIQUE REFERENCES appointments (id) ON DELETE CASCADE,
  hold_id        uuid UNIQUE REFERENCES holds (id) ON DELETE CASCADE,
  CHECK (num_nonnulls(appointment_id, hold_id) = 1),
  CONSTRAINT unit_occupancy_no_overlap EXCLUDE USING gist (store_id WITH =, unit_id WITH =, block WITH &&)
);

-- Existing data stays valid: live appointments already exclude each other, so they all enter;
-- expired holds are released; live holds enter oldest first and one that collides with something
-- already there is released as superseded (it could never have been confirmed).
INSERT INTO unit_occupancy (store_id, unit_id, block, appointment_id)
SELECT store_id, unit_id, block, id FROM appointments WHERE status NOT IN ('cancelled', 'no_show') AND NOT is_override;
UPDATE holds SET released_at = now(), release_reason = 'expired' WHERE released_at IS NULL AND expires_at <= now();
INSERT INTO unit_occupancy (store_id, unit_id, block, hold_id)
SELECT store_id, unit_id, block, id FROM holds WHERE released_at IS NULL ORDER BY created_at, id
ON CONFLICT DO NOTHING;
UPDATE holds h SET released_at = now(), release_reason = 'superseded'
 WHERE h.released_at IS NULL AND NOT EXISTS (SELECT 1 FROM unit_occupancy o WHERE o.hold_id = h.id);

-- What the customer wrote at checkout (never logged, never in events).
ALTER TABLE appointments ADD COLUMN guest_note text CHECK (length(guest_note) <= 1000);
