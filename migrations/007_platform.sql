CREATE TABLE notification_preferences (
  customer_id               uuid NOT NULL REFERENCES customers (id),
  store_id                  uuid NOT NULL REFERENCES stores (id),
  messages_muted            boolean NOT NULL DEFAULT false,
  class_reminders           boolean NOT NULL DEFAULT true,
  class_events_enabled      boolean NOT NULL DEFAULT true,
  voucher_events_enabled    boolean NOT NULL DEFAULT true,
  stamp_events_enabled      boolean NOT NULL DEFAULT true,
  membership_events_enabled boolean NOT NULL DEFAULT true,
  penalty_events_enabled    boolean NOT NULL DEFAULT true,
  marketing_enabled         boolean NOT NULL DEFAULT false,
  updated_at                timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (customer_id, store_id)
);

-- Every audited state change; written in the same transaction as the change. Never exposed.
CREATE TABLE audit_log (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  store_id    uuid,
  actor_kind  text NOT NULL,
  actor_id    text,
  actor_name  text,
  action      text NOT NULL,
  entity      text NOT NULL,
  entity_id   text,
  details     jsonb NOT NULL DEFAULT '{}',
  request_id  text,
  created_at  timestamptz NOT NULL
);
CREATE INDEX audit_log_entity ON audit_log (store_id, entity, entity_id, id);

-- Stored results of mutating requests sent with an Idempotency-Key, written in the same
-- transaction as the effect. Scoped to principal, method, path and key; kept 24 hours.
CREATE TABLE idempotency_records (
  principal    text NOT NULL,
  method       text NOT NULL,
  path         text NOT NULL,
  key          text NOT NULL,
  request_hash text NOT NULL,
  status_code  integer NOT NULL,
  body         jsonb NOT NULL,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  PRIMARY KEY (principal, method, path, key)
);
CREATE INDEX idempotency_records_expiry ON idempotency_records (expires_at);
