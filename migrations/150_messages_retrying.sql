-- The messages waiting again after a failed attempt, as an index of their own: the backlog metric's
-- retrying count (src/platform/metrics/backlog.ts) reads it. Counted through messages_due, it read
-- every pending message, future reminders included: 631 ms a scrape at 87,770 pending on the bench
-- database, 0.42 ms with this index (docs/performance/history/round-12.md). Few rows ever match, and
-- the updates that change last_error change status too, so no update that was HOT stops being so.
CREATE INDEX messages_retrying ON messages (due_at) WHERE status IN ('pending', 'sending') AND last_error IS NOT NULL;
