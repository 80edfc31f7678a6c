-- The shop's own booking page (issue 26, docs/decisions/booking-page.md): tables, columns and
-- indexes only; its functions live in db/functions/booking-page.sql.

-- The page's address and switch. A slug is lower-case letters, digits and hyphens, unique across
-- stores (the unique index decides, a taken slug is refused with 409); the page is off by default and
-- cannot be on without a slug.
ALTER TABLE stores
  ADD COLUMN booking_page_slug text CHECK (booking_page_slug ~ '^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$'),
  ADD COLUMN booking_page_enabled boolean NOT NULL DEFAULT false;
ALTER TABLE stores ADD CONSTRAINT stores_booking_page_needs_slug CHECK (NOT booking_page_enabled OR booking_page_slug IS NOT NULL);
CREATE UNIQUE INDEX stores_booking_page_slug_key ON stores (booking_page_slug) WHERE booking_page_slug IS NOT NULL;

-- A guest's hold: placed from the page before sign-in, owned by the browser's page session (a random
-- id the server signed) instead of a customer; the client address only as a keyed hash (never the
-- address), to cap the live holds one address may keep.
ALTER TABLE holds
  ADD COLUMN page_session uuid,
  ADD COLUMN client_address_hash text;
CREATE INDEX holds_page_session ON holds (page_session) WHERE page_session IS NOT NULL AND released_at IS NULL;
CREATE INDEX holds_client_address ON holds (client_address_hash) WHERE client_address_hash IS NOT NULL AND released_at IS NULL;

-- Email sign-in codes: one live code per store and email (a new code replaces the last). The email
-- and the code are kept only as keyed hashes (HMAC-SHA256 with a key derived from AUTH_SECRET).
CREATE TABLE email_codes (
  store_id    uuid NOT NULL REFERENCES stores (id),
  email_hash  text NOT NULL,
  code_hash   text NOT NULL,
  expires_at  timestamptz NOT NULL,
  -- Wrong codes typed against this code; at 5 it is dead.
  attempts    integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  used_at     timestamptz,
  created_at  timestamptz NOT NULL,
  PRIMARY KEY (store_id, email_hash)
);
CREATE INDEX email_codes_expiry ON email_codes (expires_at);

-- Proof-of-work payloads already spent (ALTCHA): kept until the challenge would have expired anyway,
-- so a payload works once. Used when REDIS_URL is not set (Redis keeps them otherwise).
CREATE TABLE spent_challenges (
  signature  text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX spent_challenges_expiry ON spent_challenges (expires_at);
