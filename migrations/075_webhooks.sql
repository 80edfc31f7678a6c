-- Webhooks: a store's endpoints, one delivery per (event, endpoint), every attempt logged, and the
-- dispatcher's durable position in the event feed. See src/webhooks/README.md.

CREATE TABLE webhook_endpoints (
  id                         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id                   uuid NOT NULL REFERENCES stores (id),
  url                        text NOT NULL,
  description                text,
  -- NULL: every event type, including types added later. Otherwise only these.
  event_types                text[] CHECK (event_types IS NULL OR cardinality(event_types) > 0),
  enabled                    boolean NOT NULL DEFAULT true,
  -- Why the service disabled it ('gone': the receiver answered 410; 'failing': every attempt failed
  -- for 5 days); NULL when enabled or disabled by the merchant.
  disabled_reason            text CHECK (disabled_reason IN ('gone', 'failing')),
  secret                     text NOT NULL,
  -- After a rotation the old secret keeps signing alongside the new one until previous_expires_at.
  previous_secret            text,
  previous_expires_at        timestamptz,
  -- Start of the current run of failed attempts (NULL after any success): 5 days of it disables.
  failing_since              timestamptz,
  -- When a worker last claimed deliveries for it: claims take the least recently served first.
  claimed_at                 timestamptz,
  created_at                 timestamptz NOT NULL,
  updated_at                 timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_store ON webhook_endpoints (store_id, created_at);

-- One row per (event, endpoint): its state and schedule. status: 'pending' (waiting for its next
-- attempt, or in flight while locked_until is in the future), 'delivered', 'failed' (schedule
-- exhausted, endpoint gone or disabled; a manual retry or a replay makes it pending again).
CREATE TABLE webhook_deliveries (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  endpoint_id      uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  store_id         uuid NOT NULL,
  -- The event (events.id). No foreign key: retention prunes events on its own schedule.
  event_id         uuid NOT NULL,
  event_type       text NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  -- When the next attempt is due. A claim moves it to the end of the claim's lease, so an attempt
  -- whose worker died becomes due again when the lease runs out (same event, same webhook-id).
  next_attempt_at  timestamptz NOT NULL,
  -- In flight until then (a claim's lease); counts against the endpoint's concurrency.
  locked_until     timestamptz,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  -- The dispatcher may see an event twice (a retried batch): it is delivered once per endpoint.
  UNIQUE (endpoint_id, event_id)
);
-- Claims: an endpoint's due deliveries, oldest first.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending';
-- Replay: an endpoint's failed deliveries since a time.
CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (endpoint_id, created_at) WHERE status = 'failed';

-- The delivery log: one row per attempt, read newest first per endpoint.
CREATE TABLE webhook_attempts (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id    bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  endpoint_id    uuid NOT NULL,
  event_id       uuid NOT NULL,
  event_type     text NOT NULL,
  attempt        integer NOT NULL,
  attempted_at   timestamptz NOT NULL,
  succeeded      boolean NOT NULL,
  http_status    integer,
  error          text,
  duration_ms    integer NOT NULL,
  -- At most 1 KB of the receiver's answer.
  response_body  text,
  next_retry_at  timestamptz
);
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, id DESC);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id);

-- The dispatcher's position in the feed of every store: advanced in the same transaction that
-- inserts the deliveries of the events it passes, so no event is skipped or dispatched twice.
CREATE TABLE webhook_dispatch_cursor (
  id    boolean PRIMARY KEY DEFAULT true CHECK (id),
  txid  xid8 NOT NULL,
  seq   bigint NOT NULL
);
INSERT INTO webhook_dispatch_cursor (txid, seq) VALUES ('0'::xid8, 0);
