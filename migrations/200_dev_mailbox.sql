-- The development mailbox (issue 41, docs/decisions/first-five-minutes.md): outside production, with
-- no SMTP_URL or SMS provider, a sign-in code is written here instead of being sent, so the console
-- can show it to the owner trying the service on their own machine. A row lives only as long as its
-- code (expires_at): rows past it are deleted as codes are asked for and as the mailbox is read, and a
-- read never shows one. Production never writes here (the service refuses to, src/notifications/delivery/).
-- The customer messages a deployment without a channel keeps are the messages table's status 'mailbox'
-- rows, not copied here.
CREATE TABLE dev_mailbox (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id    uuid NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  channel     text NOT NULL CHECK (channel IN ('email', 'sms')),
  to_address  text NOT NULL,
  subject     text NOT NULL,
  body_text   text NOT NULL,
  expires_at  timestamptz NOT NULL,
  created_at  timestamptz NOT NULL
);
-- The console's list (one store, newest first) and the expiry sweep.
CREATE INDEX dev_mailbox_store ON dev_mailbox (store_id, created_at DESC);
CREATE INDEX dev_mailbox_expiry ON dev_mailbox (expires_at);
