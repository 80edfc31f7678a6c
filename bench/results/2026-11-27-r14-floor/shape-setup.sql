CREATE EXTENSION IF NOT EXISTS btree_gist;
DROP TABLE IF EXISTS bench_ceiling;
CREATE TABLE bench_ceiling (id bigserial PRIMARY KEY, store_id uuid NOT NULL, unit_id uuid NOT NULL, during tstzrange NOT NULL,
  EXCLUDE USING gist (store_id WITH =, unit_id WITH =, during WITH &&));
DROP TABLE IF EXISTS bench_ceiling_audit, bench_ceiling_events, bench_ceiling_idem;
CREATE TABLE bench_ceiling_audit (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, store_id uuid, actor_kind text NOT NULL, actor_id text,
  actor_name text, action text NOT NULL, entity text NOT NULL, entity_id text, details jsonb NOT NULL DEFAULT '{}', request_id text, created_at timestamptz NOT NULL);
CREATE INDEX ON bench_ceiling_audit (store_id, entity, entity_id, id);
CREATE TABLE bench_ceiling_events (seq bigint GENERATED ALWAYS AS IDENTITY, txid xid8 NOT NULL DEFAULT pg_current_xact_id(), id uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  store_id uuid NOT NULL, type text NOT NULL, occurred_at timestamptz NOT NULL, occurred_at_local text NOT NULL, timezone text NOT NULL, data jsonb NOT NULL, PRIMARY KEY (txid, seq));
CREATE INDEX ON bench_ceiling_events (occurred_at);
CREATE INDEX ON bench_ceiling_events (store_id, txid, seq);
CREATE TABLE bench_ceiling_idem (principal text NOT NULL, method text NOT NULL, path text NOT NULL, key text NOT NULL, request_hash text NOT NULL,
  status_code int NOT NULL, body jsonb NOT NULL, created_at timestamptz NOT NULL, expires_at timestamptz NOT NULL, PRIMARY KEY (principal, method, path, key));
CREATE INDEX ON bench_ceiling_idem (expires_at);
