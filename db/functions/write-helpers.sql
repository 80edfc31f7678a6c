-- The parts every one-statement write shares (docs/architecture.md, "One-statement writes"). A write
-- that is one call of a plpgsql function runs in the implicit transaction of that one statement: one
-- round trip for the idempotency claim, the reads, the change and the audit/event/idempotency rows.
-- Inside a VOLATILE function every statement takes a fresh snapshot under READ COMMITTED, so a read
-- after a lock sees what the lock holder committed, as separate statements in a transaction would.
--
-- Owner: src/platform/one-statement.ts (the Node side of the convention). Each write function takes
-- (claim jsonb, actor jsonb, at timestamptz, req jsonb) and returns {"replayed": false, "body": ...};
-- the statement that calls it answers a replay before it runs (bbo_idempotency_claim below).
-- The small helpers are STABLE, which is what they are (to_char and jsonb_build_object are stable):
-- PostgreSQL then inlines them into the calling statement's plan, which plpgsql caches per session.
-- Declared IMMUTABLE over a stable body they were not inlined, and re-planning them cost about a
-- quarter of a create's database CPU (docs/performance/history/round-3.md).

-- A refusal with one of the service's error codes (src/platform/errors/error-codes.ts). SQLSTATE
-- BB001 is ours (class BB is unused by PostgreSQL); the message is the code and the detail the human
-- message, so src/platform/db/pg-errors.ts turns it into an AppError. The statement fails, so
-- everything the call wrote is rolled back.
CREATE OR REPLACE FUNCTION bbo_refuse(code text, message text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'BB001', MESSAGE = code, DETAIL = message;
END $$;

-- An instant as the service writes it everywhere (Date.prototype.toISOString): UTC, milliseconds, Z.
CREATE OR REPLACE FUNCTION bbo_iso(t timestamptz) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

-- The Idempotency-Key claim, the same steps as claimIdempotency in src/platform/idempotency.ts:
-- a transaction-scoped try-lock on the key (held: IDEMPOTENCY_IN_PROGRESS), then the stored record,
-- read AFTER the lock with a fresh snapshot. Returns the reply to replay, {"replayed": true, "body":
-- the stored body}, or NULL to run. claim: {principal, method, path, key, request_hash, lock_key};
-- NULL when the request has no key. The replay is the statement's, not the write's: callSql
-- (src/platform/one-statement.ts) sends `SELECT coalesce(bbo_idempotency_claim($1, $3), fn($1, $2,
-- $3, $4))`, and COALESCE evaluates left to right and stops at the first non-null argument, so this
-- runs first (its lock and refusals included) and a replay never runs the write. The write only
-- stores its reply (bbo_write_finish) under the claim it is given.
CREATE OR REPLACE FUNCTION bbo_idempotency_claim(claim jsonb, at timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  rec record;
BEGIN
  IF claim IS NULL THEN
    RETURN NULL;
  END IF;
  IF NOT pg_try_advisory_xact_lock(hashtextextended(claim->>'lock_key', 0)) THEN
    PERFORM bbo_refuse('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still running; retry shortly');
  END IF;
  SELECT r.request_hash, r.body, r.expires_at INTO rec FROM idempotency_records r
   WHERE r.principal = claim->>'principal' AND r.method = claim->>'method' AND r.path = claim->>'path' AND r.key = claim->>'key';
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF rec.expires_at <= at THEN
    DELETE FROM idempotency_records r
     WHERE r.principal = claim->>'principal' AND r.method = claim->>'method' AND r.path = claim->>'path' AND r.key = claim->>'key';
    RETURN NULL;
  END IF;
  IF rec.request_hash <> claim->>'request_hash' THEN
    PERFORM bbo_refuse('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request');
  END IF;
  RETURN jsonb_build_object('replayed', true, 'body', rec.body);
END $$;

-- The end of every write, the same rows inTransaction's flush writes (src/platform/flush.ts): the
-- audit rows, the outbox events, and the idempotency record with the body, all before the implicit
-- commit. audit: a JSON array of audit_log rows (src/platform/audit.ts AuditRow); events: a JSON array
-- of {store_id, type, occurred_at, data}, given the store's zone and local times exactly as
-- eventsInsertSql in src/events/outbox.ts does (keep the two in step; test/platform/one-statement.test.ts
-- compares them). Returns the body. actor: the request's actor. Its event_actor (audit.ts eventActor) is each
-- event's actor unless the event row names its own; the system's when neither does, and always for
-- hold.expired (a hold lapsing is nobody's doing), as outbox.ts actorOf.
CREATE OR REPLACE FUNCTION bbo_write_finish(claim jsonb, at timestamptz, body jsonb, audit jsonb, events jsonb, actor jsonb DEFAULT NULL) RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  IF jsonb_array_length(audit) > 0 THEN
    INSERT INTO audit_log (store_id, actor_kind, actor_id, actor_name, action, entity, entity_id, details, request_id, created_at)
    SELECT r.store_id, r.actor_kind, r.actor_id, r.actor_name, r.action, r.entity, r.entity_id, r.details, r.request_id, r.created_at
      FROM ROWS FROM (jsonb_to_recordset(audit) AS (store_id uuid, actor_kind text, actor_id text, actor_name text,
             action text, entity text, entity_id text, details jsonb, request_id text, created_at timestamptz))
           WITH ORDINALITY AS r
     ORDER BY r.ordinality;
  END IF;
  IF jsonb_array_length(events) > 0 THEN
    INSERT INTO events (store_id, type, occurred_at, occurred_at_local, timezone, actor, data)
    SELECT e.store_id, e.type, e.occurred_at, to_char(e.occurred_at AT TIME ZONE s.timezone, 'YYYY-MM-DD"T"HH24:MI:SS'), s.timezone,
           CASE WHEN e.type = 'hold.expired' THEN '{"type": "system", "id": null, "name": null}'::jsonb
                ELSE coalesce(e.actor, bbo_write_finish.actor->'event_actor', '{"type": "system", "id": null, "name": null}'::jsonb) END,
           e.data
             || CASE WHEN jsonb_typeof(e.data->'starts_at') = 'string'
                     THEN jsonb_build_object('local_starts_at', to_char((e.data->>'starts_at')::timestamptz AT TIME ZONE s.timezone, 'YYYY-MM-DD"T"HH24:MI:SS'))
                     ELSE '{}'::jsonb END
             || CASE WHEN jsonb_typeof(e.data->'ends_at') = 'string'
                     THEN jsonb_build_object('local_ends_at', to_char((e.data->>'ends_at')::timestamptz AT TIME ZONE s.timezone, 'YYYY-MM-DD"T"HH24:MI:SS'))
                     ELSE '{}'::jsonb END
      FROM ROWS FROM (jsonb_to_recordset(events) AS (store_id uuid, type text, occurred_at timestamptz, actor jsonb, data jsonb))
           WITH ORDINALITY AS e
      JOIN stores s ON s.id = e.store_id
     ORDER BY e.ordinality;
  END IF;
  IF claim IS NOT NULL THEN
    INSERT INTO idempotency_records (principal, method, path, key, request_hash, status_code, body, created_at, expires_at)
    VALUES (claim->>'principal', claim->>'method', claim->>'path', claim->>'key', claim->>'request_hash', 200, body, at, at + interval '24 hours');
  END IF;
  RETURN body;
END $$;

-- One audit row, as rowOf in src/platform/audit.ts builds it: a merchant's row names the store from
-- the token; anyone else's (a customer's) from the change's details.
CREATE OR REPLACE FUNCTION bbo_audit_row(actor jsonb, at timestamptz, action text, entity text, entity_id text, details jsonb) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT actor || jsonb_build_object('action', action, 'entity', entity, 'entity_id', entity_id, 'details', details, 'created_at', bbo_iso(at))
    || CASE WHEN actor->>'actor_kind' = 'merchant' THEN '{}'::jsonb ELSE jsonb_build_object('store_id', details->'store_id') END
$$;

-- An outbox event row for bbo_write_finish (its events argument).
CREATE OR REPLACE FUNCTION bbo_event(v_store uuid, v_type text, at timestamptz, data jsonb) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('store_id', v_store, 'type', v_type, 'occurred_at', at, 'data', data)
$$;
