-- Join order must be total: two walk-ins can join in the same instant (and do, under a fixed test
-- clock), and a random uuid is no tie-break. A sequence taken at insert settles ties in arrival order.
ALTER TABLE queue_entries ADD COLUMN join_seq bigint GENERATED ALWAYS AS IDENTITY;
DROP INDEX IF EXISTS queue_entries_live;
CREATE INDEX queue_entries_live ON queue_entries (store_id, joined_at, join_seq) WHERE status IN ('waiting', 'called');
