CREATE TABLE services (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id             uuid NOT NULL REFERENCES stores (id),
  client_token         text,
  category             text,
  name                 text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  description          text,
  images               text[] NOT NULL DEFAULT '{}',
  duration_min         integer NOT NULL CHECK (duration_min >= 0),
  price_pence          integer NOT NULL DEFAULT 0 CHECK (price_pence >= 0),
  currency             text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  price_type           text NOT NULL DEFAULT 'fixed' CHECK (price_type IN ('fixed', 'from', 'per_person')),
  party_min            integer NOT NULL DEFAULT 1 CHECK (party_min >= 1),
  party_max            integer NOT NULL DEFAULT 1,
  deposit_policy       jsonb,
  buffer_before_min    integer NOT NULL DEFAULT 0 CHECK (buffer_before_min >= 0),
  buffer_after_min     integer NOT NULL DEFAULT 0 CHECK (buffer_after_min >= 0),
  processing_min       integer NOT NULL DEFAULT 0 CHECK (processing_min >= 0),
  location_type        text NOT NULL DEFAULT 'on_premises' CHECK (location_type IN ('on_premises', 'online', 'customer_site')),
  rebook_interval_days integer CHECK (rebook_interval_days >= 0),
  online_visible       boolean NOT NULL DEFAULT true,
  sort                 integer NOT NULL DEFAULT 0,
  is_active            boolean NOT NULL DEFAULT true,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  CHECK (party_min <= party_max),
  UNIQUE (store_id, id)
);
CREATE INDEX services_store_sort ON services (store_id, sort, name);
-- A create retried with the same client_token finds the first row instead of inserting another.
CREATE UNIQUE INDEX services_client_token ON services (store_id, client_token) WHERE client_token IS NOT NULL;

CREATE TABLE service_variants (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id     uuid NOT NULL,
  service_id   uuid NOT NULL,
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  duration_min integer CHECK (duration_min >= 0),
  price_pence  integer CHECK (price_pence >= 0),
  sort         integer NOT NULL DEFAULT 0,
  is_active    boolean NOT NULL DEFAULT true,
  FOREIGN KEY (store_id, service_id) REFERENCES services (store_id, id) ON DELETE CASCADE
);
CREATE INDEX service_variants_service ON service_variants (store_id, service_id, sort);

CREATE TABLE service_addons (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id    uuid NOT NULL,
  service_id  uuid NOT NULL,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  extra_min   integer NOT NULL DEFAULT 0 CHECK (extra_min >= 0),
  extra_pence integer NOT NULL DEFAULT 0 CHECK (extra_pence >= 0),
  sort        integer NOT NULL DEFAULT 0,
  is_active   boolean NOT NULL DEFAULT true,
  FOREIGN KEY (store_id, service_id) REFERENCES services (store_id, id) ON DELETE CASCADE
);
CREATE INDEX service_addons_service ON service_addons (store_id, service_id, sort);

CREATE TABLE service_periods (
  id                      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id                uuid NOT NULL REFERENCES stores (id),
  client_token            text,
  name                    text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  sort                    integer NOT NULL DEFAULT 0,
  -- { "monday": { "open": "12:00", "close": "15:00" }, ... }; validated by the service layer.
  week                    jsonb NOT NULL DEFAULT '{}',
  last_seating_offset_min integer NOT NULL DEFAULT 0 CHECK (last_seating_offset_min BETWEEN 0 AND 1440),
  is_active               boolean NOT NULL DEFAULT true,
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX service_periods_store_sort ON service_periods (store_id, sort, name);
CREATE UNIQUE INDEX service_periods_client_token ON service_periods (store_id, client_token) WHERE client_token IS NOT NULL;
