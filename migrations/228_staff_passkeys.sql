-- Passkeys of staff accounts (issue 43, docs/decisions/staff-accounts.md "Passkeys"): WebAuthn
-- credentials a person registered from the console, and the single-use challenges of the two
-- ceremonies. A passkey belongs to the person (staff_people), whatever store they sign in to.

CREATE TABLE staff_passkeys (
  -- The credential id as the browser reports it (base64url); the authenticator's own id, so unique.
  credential_id text PRIMARY KEY CHECK (length(credential_id) BETWEEN 16 AND 1400),
  staff_id      uuid NOT NULL REFERENCES staff_people (id) ON DELETE CASCADE,
  public_key    bytea NOT NULL,
  -- The signature counter the authenticator last reported (0 for those that keep none).
  counter       bigint NOT NULL DEFAULT 0 CHECK (counter >= 0),
  transports    text[] NOT NULL DEFAULT '{}',
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  created_at    timestamptz NOT NULL,
  last_used_at  timestamptz
);
CREATE INDEX staff_passkeys_staff ON staff_passkeys (staff_id);

-- A challenge handed out with registration or authentication options: consumed by the verify step
-- in one DELETE ... RETURNING (so a challenge is used once, even by two racing requests), and
-- refused after expires_at (5 minutes). Registration challenges are bound to the signed-in person.
CREATE TABLE staff_webauthn_challenges (
  challenge  text PRIMARY KEY,
  purpose    text NOT NULL CHECK (purpose IN ('register', 'authenticate')),
  staff_id   uuid REFERENCES staff_people (id) ON DELETE CASCADE,
  store_id   uuid REFERENCES stores (id),
  expires_at timestamptz NOT NULL,
  CHECK ((purpose = 'register') = (staff_id IS NOT NULL))
);
CREATE INDEX staff_webauthn_challenges_expiry ON staff_webauthn_challenges (expires_at);
