-- A customer is one person across the platform; what a store knows of them lives in store_customers.
CREATE TABLE customers (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text CHECK (length(name) <= 80),
  email      text CHECK (email = lower(email)),
  phone      text CHECK (phone ~ '^\+[1-9][0-9]{6,14}$'),
  -- Set when the customer was erased under data-protection law: identity gone, financial rows kept.
  erased_at  timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- A phone or email belongs to one customer only: an edit that would reuse one is refused, never moved.
CREATE UNIQUE INDEX customers_email_key ON customers (email) WHERE email IS NOT NULL;
CREATE UNIQUE INDEX customers_phone_key ON customers (phone) WHERE phone IS NOT NULL;
CREATE INDEX customers_name_trgm ON customers USING gin (lower(name) gin_trgm_ops);
CREATE INDEX customers_email_trgm ON customers USING gin (email gin_trgm_ops);
CREATE INDEX customers_phone_trgm ON customers USING gin (phone gin_trgm_ops);

-- The relationship between a store and a customer (membership row, or made by any activity),
-- with everything that store alone knows: private note, block record, archive flag, and the
-- roster aggregates maintained in the same transaction as the activity they count.
CREATE TABLE store_customers (
  store_id                 uuid NOT NULL REFERENCES stores (id),
  customer_id              uuid NOT NULL REFERENCES customers (id),
  is_member                boolean NOT NULL DEFAULT false,
  member_since             timestamptz,
  first_seen_at            timestamptz NOT NULL DEFAULT now(),
  last_seen_at             timestamptz NOT NULL DEFAULT now(),
  merchant_note            text CHECK (length(merchant_note) <= 2000),
  merchant_note_updated_at timestamptz,
  blocked                  boolean NOT NULL DEFAULT false,
  blocked_at               timestamptz,
  blocked_channels         text[] NOT NULL DEFAULT '{}'
                           CHECK (blocked_channels <@ ARRAY['email', 'sms', 'drops_chat', 'app_message']::text[]),
  block_reason             text CHECK (length(block_reason) <= 500),
  -- When the one notice telling the customer they were blocked was sent; cleared when the block lifts.
  block_notice_sent_at     timestamptz,
  archived                 boolean NOT NULL DEFAULT false,
  archived_at              timestamptz,
  marketing_opted_in       boolean NOT NULL DEFAULT false,
  total_visits             integer NOT NULL DEFAULT 0,
  last_visit_at            timestamptz,
  first_visit_at           timestamptz,
  stamp_count              integer NOT NULL DEFAULT 0,
  order_count              integer NOT NULL DEFAULT 0,
  total_spent_pence        bigint NOT NULL DEFAULT 0,
  updated_at               timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (store_id, customer_id)
);
CREATE INDEX store_customers_recent ON store_customers (store_id, last_seen_at DESC, customer_id) WHERE NOT archived;
CREATE INDEX store_customers_spend ON store_customers (store_id, total_spent_pence DESC, customer_id) WHERE NOT archived;
CREATE INDEX store_customers_visits ON store_customers (store_id, total_visits DESC, customer_id) WHERE NOT archived;
CREATE INDEX store_customers_customer ON store_customers (customer_id);

-- Store-scoped agreements the customer accepted (waivers, terms); the journey reports whether any exist.
CREATE TABLE customer_agreements (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id    uuid NOT NULL REFERENCES stores (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  kind        text NOT NULL,
  accepted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX customer_agreements_customer ON customer_agreements (store_id, customer_id);
