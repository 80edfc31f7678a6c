CREATE TABLE appointments (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id          uuid NOT NULL REFERENCES stores (id),
  unit_id           uuid NOT NULL,
  service_id        uuid,
  customer_id       uuid REFERENCES customers (id),
  guest_name        text,
  guest_email       text,
  guest_phone       text,
  starts_at         timestamptz NOT NULL,
  ends_at           timestamptz NOT NULL,
  -- What the unit is occupied for: [starts_at, ends_at) widened by any buffers.
  block             tstzrange NOT NULL,
  status            text NOT NULL CHECK (status IN ('pending_payment', 'confirmed', 'checked_in', 'completed', 'cancelled', 'no_show')),
  payment_status    text NOT NULL DEFAULT 'none'
                    CHECK (payment_status IN ('none', 'deposit_paid', 'paid', 'refunded', 'partially_refunded', 'failed')),
  price_pence       integer NOT NULL DEFAULT 0 CHECK (price_pence >= 0),
  deposit_pence     integer NOT NULL DEFAULT 0 CHECK (deposit_pence >= 0),
  -- Running total of settlements rows; updated in the same transaction as each insert.
  settled_pence     integer NOT NULL DEFAULT 0 CHECK (settled_pence >= 0),
  currency          text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  party_size        integer NOT NULL DEFAULT 1 CHECK (party_size >= 1),
  children          integer NOT NULL DEFAULT 0 CHECK (children >= 0),
  high_chairs       integer NOT NULL DEFAULT 0 CHECK (high_chairs >= 0),
  source            text NOT NULL DEFAULT 'merchant',
  is_override       boolean NOT NULL DEFAULT false,
  preferred_area_id uuid,
  client_token      text,
  cancel_reason     text,
  checked_in_at     timestamptz,
  completed_at      timestamptz,
  cancelled_at      timestamptz,
  no_show_at        timestamptz,
  created_by        text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  CHECK (ends_at > starts_at),
  CHECK (lower(block) <= starts_at AND upper(block) >= ends_at),
  FOREIGN KEY (store_id, unit_id) REFERENCES units (store_id, id),
  FOREIGN KEY (store_id, service_id) REFERENCES services (store_id, id),
  FOREIGN KEY (store_id, preferred_area_id) REFERENCES areas (store_id, id),
  UNIQUE (store_id, id),
  -- The no-double-booking rule. Two live blocks on one unit never overlap; cancelled and no-show rows
  -- have released their time, and override rows were force-booked and block nobody.
  CONSTRAINT appointments_no_overlap EXCLUDE USING gist (store_id WITH =, unit_id WITH =, block WITH &&)
    WHERE (status NOT IN ('cancelled', 'no_show') AND NOT is_override)
);
CREATE INDEX appointments_store_starts ON appointments (store_id, starts_at);
CREATE INDEX appointments_unit_block ON appointments USING gist (store_id, unit_id, block);
CREATE INDEX appointments_customer ON appointments (store_id, customer_id, starts_at DESC) WHERE customer_id IS NOT NULL;
CREATE INDEX appointments_guest_name_trgm ON appointments USING gin (lower(guest_name) gin_trgm_ops);
CREATE INDEX appointments_guest_email_trgm ON appointments USING gin (lower(guest_email) gin_trgm_ops);
-- A create retried with the same client_token returns the first appointment.
CREATE UNIQUE INDEX appointments_client_token ON appointments (store_id, client_token) WHERE client_token IS NOT NULL;

-- Money recorded as taken outside the platform (cash or the shop's own card machine).
CREATE TABLE settlements (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id           uuid NOT NULL,
  appointment_id     uuid NOT NULL,
  amount_pence       integer NOT NULL CHECK (amount_pence > 0),
  currency           text NOT NULL,
  method             text NOT NULL CHECK (method IN ('cash', 'card_machine')),
  settled_by_user_id text,
  settled_by_name    text,
  settled_at         timestamptz NOT NULL,
  FOREIGN KEY (store_id, appointment_id) REFERENCES appointments (store_id, id)
);
CREATE INDEX settlements_appointment ON settlements (store_id, appointment_id, settled_at);

-- A live reservation mid-checkout. Unexpired holds occupy their unit (see the booking authority).
CREATE TABLE holds (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id    uuid NOT NULL,
  unit_id     uuid NOT NULL,
  starts_at   timestamptz NOT NULL,
  ends_at     timestamptz NOT NULL,
  expires_at  timestamptz,
  released_at timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  CHECK (ends_at > starts_at),
  FOREIGN KEY (store_id, unit_id) REFERENCES units (store_id, id)
);
CREATE INDEX holds_unit_range ON holds USING gist (store_id, unit_id, tstzrange(starts_at, ends_at)) WHERE released_at IS NULL;

CREATE TABLE time_off (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id   uuid NOT NULL,
  unit_id    uuid NOT NULL,
  starts_at  timestamptz NOT NULL,
  ends_at    timestamptz NOT NULL,
  kind       text NOT NULL CHECK (kind IN ('time_off', 'block')),
  reason     text CHECK (length(reason) <= 500),
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (ends_at > starts_at),
  FOREIGN KEY (store_id, unit_id) REFERENCES units (store_id, id)
);
CREATE INDEX time_off_unit_range ON time_off USING gist (store_id, unit_id, tstzrange(starts_at, ends_at));
