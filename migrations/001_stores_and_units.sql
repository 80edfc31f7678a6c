-- Extensions: btree_gist lets the exclusion constraint mix equality (store, unit) with range overlap;
-- pg_trgm backs the substring searches over names, emails and phones.
CREATE EXTENSION IF NOT EXISTS btree_gist;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE stores (
  id                      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name                    text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  timezone                text NOT NULL,
  currency                text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  walkin_mode             text CHECK (walkin_mode IN ('appointments_only', 'walk_ins_only', 'mixed')),
  called_hold_minutes     integer CHECK (called_hold_minutes BETWEEN 0 AND 1440),
  cancellation_window_min integer NOT NULL DEFAULT 0 CHECK (cancellation_window_min BETWEEN 0 AND 525600),
  last_seating_offset_min integer CHECK (last_seating_offset_min BETWEEN 0 AND 1440),
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now()
);

-- A unit is what gets booked: a staff member, a chair, a room or a table.
CREATE TABLE units (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id        uuid NOT NULL REFERENCES stores (id),
  display_name    text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 120),
  kind            text NOT NULL,
  unit_type       text,
  user_id         text,
  colour          text,
  photo_url       text,
  sort            integer NOT NULL DEFAULT 0,
  bookable        boolean NOT NULL DEFAULT true,
  online_bookable boolean NOT NULL DEFAULT true,
  is_active       boolean NOT NULL DEFAULT true,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  -- Target of composite foreign keys: a row that names a unit must name the unit's own store.
  UNIQUE (store_id, id)
);
CREATE INDEX units_store_sort ON units (store_id, sort, display_name);

-- Dining areas a restaurant guest may ask for (diary preferred_area_*).
CREATE TABLE areas (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id   uuid NOT NULL REFERENCES stores (id),
  name       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (store_id, id)
);
