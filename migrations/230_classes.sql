-- Classes: a timetable with capacity and a waitlist (issue 44, docs/decisions/classes.md). The rows
-- the attendance operation and the journey already read (class_bookings, migration 006) are the
-- bookings: a booking made here fills the same columns the operator's activity endpoint writes, so
-- both kinds of row keep working side by side.

CREATE TABLE classes (
  id                       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id                 uuid NOT NULL REFERENCES stores (id),
  name                     text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  category                 text CHECK (length(category) <= 200),
  duration_min             integer NOT NULL CHECK (duration_min BETWEEN 1 AND 1440),
  -- 1000 seats is far above any studio; the bound keeps a typo from making a class unlimited.
  capacity                 integer NOT NULL CHECK (capacity BETWEEN 1 AND 1000),
  instructor_unit_id       uuid,
  price_pence              integer CHECK (price_pence BETWEEN 0 AND 10000000),
  -- auto: a freed seat books the first in line at once; offer: it is offered for offer_minutes.
  waitlist_mode            text NOT NULL DEFAULT 'auto' CHECK (waitlist_mode IN ('auto', 'offer')),
  offer_minutes            integer NOT NULL DEFAULT 60 CHECK (offer_minutes BETWEEN 1 AND 1440),
  -- Within this many minutes of the start nobody is promoted (and a full class takes no waitlist).
  promotion_cutoff_minutes integer NOT NULL DEFAULT 0 CHECK (promotion_cutoff_minutes BETWEEN 0 AND 10080),
  archived                 boolean NOT NULL DEFAULT false,
  created_at               timestamptz NOT NULL,
  updated_at               timestamptz NOT NULL,
  UNIQUE (store_id, id),
  FOREIGN KEY (store_id, instructor_unit_id) REFERENCES units (store_id, id)
);
CREATE INDEX classes_store_name ON classes (store_id, name);

CREATE TABLE class_occurrences (
  id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id               uuid NOT NULL REFERENCES stores (id),
  class_id               uuid NOT NULL,
  starts_at              timestamptz NOT NULL,
  ends_at                timestamptz NOT NULL CHECK (ends_at > starts_at),
  -- The occurrence's own instructor (null: the class's); unit_id is the unit it occupies, the
  -- instructor in effect when it was scheduled (null: no unit is occupied).
  instructor_unit_id     uuid,
  unit_id                uuid,
  -- Its own capacity (null: the class's, read at each write).
  capacity               integer CHECK (capacity BETWEEN 1 AND 1000),
  -- The last waitlist position handed out: bumped under this row's lock, so positions follow the
  -- order the bookings committed, with no gap and no repeat.
  last_waitlist_position integer NOT NULL DEFAULT 0,
  cancelled_at           timestamptz,
  created_at             timestamptz NOT NULL,
  UNIQUE (store_id, id),
  FOREIGN KEY (store_id, class_id) REFERENCES classes (store_id, id),
  FOREIGN KEY (store_id, instructor_unit_id) REFERENCES units (store_id, id),
  FOREIGN KEY (store_id, unit_id) REFERENCES units (store_id, id)
);
-- One live occurrence of a class at a start (a weekly schedule run twice adds nothing twice).
CREATE UNIQUE INDEX class_occurrences_one_start ON class_occurrences (store_id, class_id, starts_at) WHERE cancelled_at IS NULL;
CREATE INDEX class_occurrences_store_start ON class_occurrences (store_id, starts_at);

-- The bookings: class_bookings gains the occurrence, a guest's contact, the waitlist and the offer.
ALTER TABLE class_bookings
  ADD COLUMN occurrence_id     uuid,
  ADD COLUMN guest_name        text CHECK (length(guest_name) <= 200),
  ADD COLUMN guest_email       text CHECK (length(guest_email) <= 320),
  ADD COLUMN waitlist_position integer CHECK (waitlist_position >= 1),
  ADD COLUMN promoted_at       timestamptz,
  ADD COLUMN offer_expires_at  timestamptz,
  ADD COLUMN updated_at        timestamptz,
  ADD CONSTRAINT class_bookings_occurrence_fkey FOREIGN KEY (store_id, occurrence_id) REFERENCES class_occurrences (store_id, id),
  ADD CONSTRAINT class_bookings_store_id_id_key UNIQUE (store_id, id),
  ALTER COLUMN customer_id DROP NOT NULL,
  -- A guest books an occurrence with an email; reported rows (no occurrence) always name a customer.
  ADD CONSTRAINT class_bookings_who CHECK (customer_id IS NOT NULL OR (occurrence_id IS NOT NULL AND guest_email IS NOT NULL)),
  -- An offer made here has its expiry (kept after it lapses, for the record). Rows the activity
  -- endpoint reports (no occurrence) may say promotion_pending without one.
  ADD CONSTRAINT class_bookings_offer CHECK (occurrence_id IS NULL OR status <> 'promotion_pending' OR offer_expires_at IS NOT NULL);
-- No two bookings of one occurrence share a waitlist position.
CREATE UNIQUE INDEX class_bookings_waitlist_position ON class_bookings (store_id, occurrence_id, waitlist_position)
  WHERE occurrence_id IS NOT NULL AND waitlist_position IS NOT NULL;
-- One live booking of an occurrence per customer and per guest email.
CREATE UNIQUE INDEX class_bookings_one_customer ON class_bookings (store_id, occurrence_id, customer_id)
  WHERE occurrence_id IS NOT NULL AND customer_id IS NOT NULL AND status IN ('confirmed', 'waitlisted', 'promotion_pending', 'attended');
CREATE UNIQUE INDEX class_bookings_one_guest ON class_bookings (store_id, occurrence_id, lower(guest_email))
  WHERE occurrence_id IS NOT NULL AND customer_id IS NULL AND status IN ('confirmed', 'waitlisted', 'promotion_pending', 'attended');
-- The roster and the counts read an occurrence's bookings by status; the offer sweep finds due offers.
CREATE INDEX class_bookings_occurrence ON class_bookings (occurrence_id, status) WHERE occurrence_id IS NOT NULL;
CREATE INDEX class_bookings_offers_due ON class_bookings (offer_expires_at) WHERE status = 'promotion_pending';
-- The first in line, read by every promotion: a long waitlist is never sorted.
CREATE INDEX class_bookings_waiting ON class_bookings (occurrence_id, waitlist_position) WHERE status = 'waitlisted';

-- An occurrence occupies its instructor's unit through the one constraint that keeps appointments
-- and holds apart (unit_occupancy_no_overlap, migration 080): a third kind of owner.
ALTER TABLE unit_occupancy
  -- Keyed with store_id like every store-owned key (migration 120); the trigger's ON CONFLICT target.
  ADD COLUMN occurrence_id uuid,
  ADD CONSTRAINT unit_occupancy_occurrence_key UNIQUE (store_id, occurrence_id),
  ADD CONSTRAINT unit_occupancy_occurrence_fkey FOREIGN KEY (store_id, occurrence_id)
    REFERENCES class_occurrences (store_id, id) ON DELETE CASCADE,
  DROP CONSTRAINT unit_occupancy_check,
  ADD CONSTRAINT unit_occupancy_one_owner CHECK (num_nonnulls(appointment_id, hold_id, occurrence_id) = 1);

-- Class booking events have three parts (class.booking.created, issue 44): the type's shape admits
-- a second dot.
ALTER TABLE events DROP CONSTRAINT events_type_check,
  ADD CONSTRAINT events_type_check CHECK (type ~ '^[a-z_]+(\.[a-z_]+){1,2}$');
