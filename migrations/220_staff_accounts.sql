-- Staff accounts (issue 43, docs/decisions/staff-accounts.md): a person signs in once and works at
-- one or more stores, with a role at each. Secrets are never stored: invitations, sessions and API
-- keys keep only the SHA-256 of a random token of 256 bits; passwords only their argon2id hash.

-- A person, whatever store they work at. The email is unique whatever its case.
CREATE TABLE staff_people (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email         text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  password_hash text,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL
);
CREATE UNIQUE INDEX staff_people_email ON staff_people (lower(email));

-- A person's place at a store: the role, permissions, the unit a `staff` member works on.
CREATE TABLE staff_memberships (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id        uuid NOT NULL REFERENCES stores (id),
  staff_id        uuid NOT NULL REFERENCES staff_people (id),
  role            text NOT NULL CHECK (role IN ('owner', 'manager', 'front_desk', 'staff')),
  permissions     text[] NOT NULL DEFAULT '{}',
  unit_id         uuid,
  disabled        boolean NOT NULL DEFAULT false,
  last_sign_in_at timestamptz,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  UNIQUE (store_id, staff_id),
  UNIQUE (store_id, id),
  -- The unit is one of the member's own store.
  FOREIGN KEY (store_id, unit_id) REFERENCES units (store_id, id)
);
CREATE INDEX staff_memberships_staff ON staff_memberships (staff_id);

-- An invitation to a store (72 hours; the first-run setup link is one with store_id null, 24 hours).
-- One live invitation per store and email: a new one replaces the old (the service deletes it in the
-- same transaction; the unique index is what guarantees it under races).
CREATE TABLE staff_invitations (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id    uuid REFERENCES stores (id),
  email       text,
  name        text,
  role        text NOT NULL CHECK (role IN ('owner', 'manager', 'front_desk', 'staff')),
  permissions text[] NOT NULL DEFAULT '{}',
  unit_id     uuid,
  token_hash  bytea NOT NULL UNIQUE,
  invited_by  uuid REFERENCES staff_people (id),
  expires_at  timestamptz NOT NULL,
  accepted_at timestamptz,
  created_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX staff_invitations_one_live ON staff_invitations (store_id, lower(email)) WHERE accepted_at IS NULL AND email IS NOT NULL;

-- A signed-in browser: only the token's hash. Ended by sign-out, by disabling or removing the
-- member, or by expiry (idle and absolute, both read at every request).
CREATE TABLE staff_sessions (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash    bytea NOT NULL UNIQUE,
  staff_id      uuid NOT NULL REFERENCES staff_people (id),
  store_id      uuid NOT NULL REFERENCES stores (id),
  created_at    timestamptz NOT NULL,
  last_seen_at  timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  ended_at      timestamptz,
  user_agent    text,
  FOREIGN KEY (store_id, staff_id) REFERENCES staff_memberships (store_id, staff_id) ON DELETE CASCADE
);
CREATE INDEX staff_sessions_staff ON staff_sessions (staff_id, store_id) WHERE ended_at IS NULL;

-- A store's key for its own software: prefix bbo_live_ (secret scanners), only the hash kept.
CREATE TABLE api_keys (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id     uuid NOT NULL REFERENCES stores (id),
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  scopes       text[] NOT NULL,
  key_hash     bytea NOT NULL UNIQUE,
  key_hint     text NOT NULL,
  created_by   uuid REFERENCES staff_people (id),
  created_at   timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at   timestamptz,
  UNIQUE (store_id, id)
);
CREATE INDEX api_keys_store ON api_keys (store_id, created_at) WHERE revoked_at IS NULL;

-- Failed sign-ins, by account (the lower-cased email's hash, so an unknown address is throttled the
-- same) and by client address; rows older than an hour are deleted as new ones are written.
CREATE TABLE staff_sign_in_failures (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subject    text NOT NULL,
  failed_at  timestamptz NOT NULL
);
CREATE INDEX staff_sign_in_failures_subject ON staff_sign_in_failures (subject, failed_at);
