-- The transactional outbox: every change writes its event row in the same transaction as the change,
-- so a rolled-back change leaves no event and a committed change always has one.
--
-- Order without gaps. Sequence numbers are taken in one order and committed in another, so a reader
-- that follows "seq > cursor" can pass an event whose transaction commits later. Each row therefore
-- records the id of the transaction that wrote it (txid, PostgreSQL's 64-bit xid8), and the feed
-- orders by (txid, seq) and returns only rows whose transaction is older than the oldest one still
-- running (pg_snapshot_xmin of the reader's snapshot). Every transaction below that horizon has
-- finished, so no row can later appear before a position a reader has already passed: nothing is
-- skipped and nothing is seen twice. See src/events/feed.repository.ts.
CREATE TABLE events (
  seq               bigint GENERATED ALWAYS AS IDENTITY,
  txid              xid8 NOT NULL DEFAULT pg_current_xact_id(),
  id                uuid NOT NULL DEFAULT gen_random_uuid(),
  store_id          uuid NOT NULL REFERENCES stores (id),
  type              text NOT NULL CHECK (type ~ '^[a-z_]+\.[a-z_]+$'),
  occurred_at       timestamptz NOT NULL,
  -- Store-local wall time (YYYY-MM-DDTHH:MM:SS) and the zone it was read in, fixed at write time.
  occurred_at_local text NOT NULL,
  timezone          text NOT NULL,
  data              jsonb NOT NULL,
  PRIMARY KEY (txid, seq),
  UNIQUE (id)
);
-- The feed of one store, in feed order.
CREATE INDEX events_store_order ON events (store_id, txid, seq);
-- Retention prunes the oldest first.
CREATE INDEX events_occurred ON events (occurred_at);

-- The store's online booking and messaging settings (GET/PATCH /api/v1/bookings/settings).
ALTER TABLE stores
  ADD COLUMN slot_step_min        integer NOT NULL DEFAULT 15 CHECK (slot_step_min BETWEEN 5 AND 240),
  ADD COLUMN min_notice_min       integer NOT NULL DEFAULT 60 CHECK (min_notice_min BETWEEN 0 AND 43200),
  ADD COLUMN booking_horizon_days integer NOT NULL DEFAULT 90 CHECK (booking_horizon_days BETWEEN 1 AND 365),
  ADD COLUMN hold_minutes         integer NOT NULL DEFAULT 10 CHECK (hold_minutes BETWEEN 1 AND 60),
  ADD COLUMN deposit_due_minutes  integer NOT NULL DEFAULT 30 CHECK (deposit_due_minutes BETWEEN 5 AND 10080),
  ADD COLUMN reminder_lead_hours  integer NOT NULL DEFAULT 24 CHECK (reminder_lead_hours BETWEEN 1 AND 168),
  ADD COLUMN cors_origins         text[] NOT NULL DEFAULT '{}';
