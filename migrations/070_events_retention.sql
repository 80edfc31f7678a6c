-- Event retention. Events are kept 90 days and then pruned in batches (src/events/retention.ts).
-- Each store records how far its pruned history reaches in feed order: the largest (txid, seq)
-- position pruned. A feed or stream cursor below that position may have missed pruned events, so it
-- answers 410 CURSOR_EXPIRED instead of silently skipping them; a cursor at or past it lost nothing.
-- Per store, so a quiet store's cursor does not expire because other stores' events were pruned.
CREATE TABLE events_pruned (
  store_id        uuid PRIMARY KEY REFERENCES stores (id),
  through_txid    xid8 NOT NULL,
  through_seq     bigint NOT NULL,
  pruned_count    bigint NOT NULL DEFAULT 0,
  -- Events that occurred before this instant may have been pruned.
  occurred_before timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);
