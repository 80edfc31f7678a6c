-- Sign-in through the shop's identity provider (issue 43, docs/decisions/staff-accounts.md "OIDC"):
-- one row per started sign-in, between GET /api/v1/auth/oidc/start and its callback. It keeps the
-- PKCE verifier and the nonce server-side, is found by its state, must come back in the same
-- browser (the hash of a cookie set at the start), lives ten minutes and is consumed once.
CREATE TABLE staff_oidc_logins (
  state         text PRIMARY KEY CHECK (length(state) BETWEEN 20 AND 100),
  browser_hash  bytea NOT NULL,
  code_verifier text NOT NULL,
  nonce         text NOT NULL,
  -- The store to sign in to, when the sign-in page named one.
  store_id      uuid REFERENCES stores (id),
  expires_at    timestamptz NOT NULL
);
CREATE INDEX staff_oidc_logins_expiry ON staff_oidc_logins (expires_at);
