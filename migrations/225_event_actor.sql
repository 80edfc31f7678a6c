-- Who made the change an event records (issue 43 "Who did what"): {type, id, name}, as the event's
-- actor field on the feed, the stream and the webhooks. Null on events written before this column,
-- and on events no request wrote.
ALTER TABLE events ADD COLUMN actor jsonb;
