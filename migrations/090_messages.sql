-- Customer messages (src/notifications/): planned from the event feed, sent by the sender loop.
--
-- One row per message the service decided to send or not to send. Nothing is deleted: a message the
-- gate refused is 'suppressed' with its reason, a reminder made obsolete by a reschedule, cancel or
-- no-show is 'withdrawn' with its reason, and without a configured channel a message is held in the
-- local 'mailbox' (never reported as sent).
CREATE TABLE messages (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id       uuid NOT NULL REFERENCES stores (id),
  -- The message key: a restart or a second planner can plan it again only onto this same row.
  kind           text NOT NULL CHECK (kind IN ('confirmation', 'change', 'cancellation', 'reminder', 'queue_called', 'rebook_nudge')),
  subject_id     uuid NOT NULL,           -- the appointment, or the queue entry for queue_called
  version        text NOT NULL,           -- 'v1' for once-only kinds, else the id of the event that planned it
  channel        text NOT NULL CHECK (channel IN ('email', 'sms')),
  -- The gate's category (may-send.ts) and who it is for: a customer, or a guest (customer_id null).
  category       text NOT NULL,
  customer_id    uuid REFERENCES customers (id),
  to_address     text NOT NULL,
  appointment_id uuid,
  queue_entry_id uuid,
  -- The appointment start this message was written for: a send for a start that moved is stale.
  planned_start  timestamptz,
  -- Rendered at plan time. Never the merchant note or the block reason.
  subject        text NOT NULL,
  body_text      text NOT NULL,
  body_html      text NOT NULL,
  ics            text,
  ics_sequence   integer,
  message_id     text NOT NULL,           -- RFC 5322 Message-ID, derived from the key
  status         text NOT NULL DEFAULT 'pending'
                 CHECK (status IN ('pending', 'sending', 'sent', 'mailbox', 'suppressed', 'withdrawn', 'failed')),
  reason         text,                    -- why suppressed, withdrawn or failed
  due_at         timestamptz NOT NULL,
  -- The claim of one sender: another may take the message over only after the lease ends.
  lease_until    timestamptz,
  lease_token    uuid,
  attempts       integer NOT NULL DEFAULT 0,
  last_error     text,                    -- an error code or SMTP/HTTP status, never an address or body
  provider_id    text,                    -- the SMTP server's or SMS provider's id for the sent message
  sent_at        timestamptz,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL,
  CONSTRAINT messages_key UNIQUE (kind, subject_id, version, channel),
  CHECK ((status IN ('suppressed', 'withdrawn', 'failed')) = (reason IS NOT NULL)),
  CHECK ((status = 'sent') = (sent_at IS NOT NULL))
);
-- The sender's queue: due messages first (pending, and sends whose lease ran out).
CREATE INDEX messages_due ON messages (due_at) WHERE status IN ('pending', 'sending');
-- Reminders of one appointment, to withdraw on reschedule, cancel and no-show.
CREATE INDEX messages_appointment ON messages (appointment_id, kind) WHERE appointment_id IS NOT NULL;
-- The operator's list of a store's messages, newest first.
CREATE INDEX messages_store ON messages (store_id, created_at DESC, id DESC);
-- Erasure finds a customer's messages, and a guest's by address.
CREATE INDEX messages_customer ON messages (customer_id) WHERE customer_id IS NOT NULL;
CREATE INDEX messages_guest_address ON messages (to_address) WHERE customer_id IS NULL;
-- The customer's journey: sent messages only.
CREATE INDEX messages_journey ON messages (store_id, customer_id, sent_at DESC, id DESC) WHERE status = 'sent';

-- The local mailbox: what would have been sent had a channel been configured.
CREATE VIEW mailbox AS SELECT * FROM messages WHERE status = 'mailbox';

-- The planner's position in the event feed. Advanced in the same transaction as the messages it
-- planned, so a crash either keeps both or neither: nothing lost, nothing planned twice.
CREATE TABLE message_planner_cursor (
  name  text PRIMARY KEY,
  txid  xid8 NOT NULL DEFAULT '0',
  seq   bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO message_planner_cursor (name) VALUES ('messages');
