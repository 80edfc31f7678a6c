-- Calendar feeds (src/bookings/calendar-feeds/): each unit's secret ICS feed. The URL's token is
-- HMAC(AUTH_SECRET, unit and nonce): the database keeps the nonce and the token's SHA-256 only, so
-- a copy of the database opens no feed. Rotating replaces the row: the old token stops at once.
CREATE TABLE unit_calendar_feeds (
  store_id   uuid NOT NULL,
  unit_id    uuid NOT NULL,
  nonce      text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (store_id, unit_id),
  FOREIGN KEY (store_id, unit_id) REFERENCES units (store_id, id)
);

-- Whether a feed shows customers' names, emails and phones (off: the service and "Booked" only).
ALTER TABLE stores ADD COLUMN calendar_feed_contacts boolean NOT NULL DEFAULT false;
