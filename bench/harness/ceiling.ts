// The database's own write limit on this machine, measured in the same run as the scenarios: one
// transaction inserting one row into a table with the same exclusion constraint as appointments
// (store_id =, unit_id =, tstzrange &&, through btree_gist). Every write scenario is reported as a
// ratio to it, beside its ratio to its own SQL.
//
// Beside it, the booking-shaped write (BOOKING below): what a booking must write, in one statement.
// Two drivers, both autocommit (one INSERT = one transaction, as pgbench's default script is one):
//  - from Node with `pg`, `loops` concurrent loops over a pool of `connections` sessions: exactly the
//    shape of the service (its pool size, the bench's 32 in flight) and of the SQL-only limit;
//  - `pgbench` with `connections` clients, where installed (the C client costs less CPU than Node, so
//    on two shared cores it usually reads higher).
// The ceiling the ratios use is the higher of the two: the stricter yardstick.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface OneCeiling {
  /** The figure ratios use: the higher of node and pgbench. */
  tps: number;
  node: { tps: number; p50: number; p99: number; connections: number; loops: number };
  pgbench: { tps: number; latencyAvgMs: number | null; clients: number } | null;
}

/** The one-insert ceiling, and beside it (same run) the booking-shaped write's. */
export interface CeilingResult extends OneCeiling {
  booking: OneCeiling | null;
}

// A scratch table beside the data, with the constraint appointments has. Empty before each driver,
// so both insert into the same size of index.
const SETUP = `
  CREATE EXTENSION IF NOT EXISTS btree_gist;
  DROP TABLE IF EXISTS bench_ceiling;
  CREATE TABLE bench_ceiling (
    id bigserial PRIMARY KEY,
    store_id uuid NOT NULL,
    unit_id uuid NOT NULL,
    during tstzrange NOT NULL,
    EXCLUDE USING gist (store_id WITH =, unit_id WITH =, during WITH &&)
  );`;
// Fresh time for every insert (a sequence), spread over 50 stores x 10 units as the dataset is.
const INSERT = `INSERT INTO bench_ceiling (store_id, unit_id, during)
  SELECT md5('s' || (n % 50))::uuid, md5('u' || (n % 500))::uuid,
         tstzrange('2100-01-01'::timestamptz + n * interval '1 minute', '2100-01-01'::timestamptz + (n + 1) * interval '1 minute')
    FROM (SELECT nextval('bench_ceiling_id_seq') AS n) x`;

// The booking-shaped write (issue 28): one statement of data-modifying CTEs that writes the rows
// every booking must write, no more: the appointment through the same exclusion constraint, an audit
// row, an outbox event carrying its transaction id (pg_current_xact_id(), the feed's order), and an
// idempotency record. Scratch tables with the real tables' columns and indexes (events: primary key
// (txid, seq), unique id, occurred_at, (store, txid, seq); audit: id, (store, entity, entity_id, id);
// idempotency: (principal, method, path, key), expiry), so each index is the write it is in the product.
// The key is spread as clients' random keys are (clientKey in load.ts), not in insert order.
const BOOKING_SETUP =
  SETUP +
  `
  DROP TABLE IF EXISTS bench_ceiling_audit, bench_ceiling_events, bench_ceiling_idem;
  CREATE TABLE bench_ceiling_audit (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, store_id uuid, actor_kind text NOT NULL, actor_id text,
    actor_name text, action text NOT NULL, entity text NOT NULL, entity_id text, details jsonb NOT NULL DEFAULT '{}',
    request_id text, created_at timestamptz NOT NULL);
  CREATE INDEX ON bench_ceiling_audit (store_id, entity, entity_id, id);
  CREATE TABLE bench_ceiling_events (
    seq bigint GENERATED ALWAYS AS IDENTITY, txid xid8 NOT NULL DEFAULT pg_current_xact_id(), id uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
    store_id uuid NOT NULL, type text NOT NULL, occurred_at timestamptz NOT NULL, occurred_at_local text NOT NULL,
    timezone text NOT NULL, data jsonb NOT NULL, PRIMARY KEY (txid, seq));
  CREATE INDEX ON bench_ceiling_events (occurred_at);
  CREATE INDEX ON bench_ceiling_events (store_id, txid, seq);
  CREATE TABLE bench_ceiling_idem (
    principal text NOT NULL, method text NOT NULL, path text NOT NULL, key text NOT NULL, request_hash text NOT NULL,
    status_code int NOT NULL, body jsonb NOT NULL, created_at timestamptz NOT NULL, expires_at timestamptz NOT NULL,
    PRIMARY KEY (principal, method, path, key));
  CREATE INDEX ON bench_ceiling_idem (expires_at);`;
const BOOKING = `WITH a AS (${INSERT} RETURNING id, store_id, unit_id, during),
  au AS (INSERT INTO bench_ceiling_audit (store_id, actor_kind, actor_id, actor_name, action, entity, entity_id, details, request_id, created_at)
         SELECT store_id, 'merchant', 'bench-user', 'Bench Staff', 'appointment.create', 'appointment', id::text,
                jsonb_build_object('unit_id', unit_id, 'starts_at', lower(during), 'ends_at', upper(during)), 'req-' || id, now() FROM a),
  ev AS (INSERT INTO bench_ceiling_events (store_id, type, occurred_at, occurred_at_local, timezone, data)
         SELECT store_id, 'appointment.created', now(), (now() AT TIME ZONE 'Europe/London')::text, 'Europe/London',
                jsonb_build_object('id', md5(id::text)::uuid, 'store_id', store_id, 'unit_id', unit_id, 'status', 'confirmed',
                                   'starts_at', lower(during), 'ends_at', upper(during), 'guest_name', 'Bench Guest') FROM a)
  INSERT INTO bench_ceiling_idem (principal, method, path, key, request_hash, status_code, body, created_at, expires_at)
  SELECT 'merchant/' || store_id, 'POST', '/api/v1/bookings/appointments', 'key-' || md5('k' || id), md5(id::text), 201,
         jsonb_build_object('appointment', jsonb_build_object('id', md5(id::text)::uuid, 'unit_id', unit_id, 'starts_at', lower(during))),
         now(), now() + interval '24 hours' FROM a`;

type Shape = { setup: string; statement: string };
const SHAPES: Record<'insert' | 'booking', Shape> = {
  insert: { setup: SETUP, statement: INSERT },
  booking: { setup: BOOKING_SETUP, statement: BOOKING },
};

async function reset(url: string, shape: Shape = SHAPES.insert) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(shape.setup);
  } finally {
    await c.end();
  }
}

async function nodeDriver(
  url: string,
  connections: number,
  loops: number,
  seconds: number,
  shape: Shape = SHAPES.insert,
) {
  const pool = new pg.Pool({ connectionString: url, max: connections });
  const latencies: number[] = [];
  try {
    const stmt = {
      name: shape === SHAPES.insert ? 'bench_ceiling_insert' : 'bench_ceiling_booking',
      text: shape.statement,
    };
    // Every session connected and the statement prepared before the clock starts.
    await Promise.all(Array.from({ length: connections }, () => pool.query(stmt)));
    const started = performance.now();
    const deadline = started + seconds * 1000;
    const loop = async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        await pool.query(stmt);
        latencies.push(performance.now() - t0);
      }
    };
    await Promise.all(Array.from({ length: loops }, loop));
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const pct = (p: number) =>
      Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] * 100) / 100;
    return { tps: Math.round(latencies.length / elapsed), p50: pct(0.5), p99: pct(0.99), connections, loops };
  } finally {
    await pool.end();
  }
}

function hasPgbench(): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const file = path.join(dir, 'pgbench');
    if (fs.existsSync(file)) return file;
  }
  return null;
}

async function pgbenchDriver(bin: string, url: string, clients: number, seconds: number, shape: Shape = SHAPES.insert) {
  const script = path.join(os.tmpdir(), `bench-ceiling-${process.pid}.sql`);
  fs.writeFileSync(script, shape.statement.replace(/\s+/g, ' ') + ';\n');
  const u = new URL(url);
  const argv = [
    '-n',
    '-M',
    'prepared',
    '-c',
    String(clients),
    '-j',
    String(Math.min(clients, os.cpus().length)),
    '-T',
    String(seconds),
    '-f',
    script,
    '-h',
    u.hostname,
    '-p',
    u.port || '5432',
    '-U',
    decodeURIComponent(u.username || 'postgres'),
    decodeURIComponent(u.pathname.slice(1)),
  ];
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(bin, argv, {
      env: { ...process.env, ...(u.password ? { PGPASSWORD: decodeURIComponent(u.password) } : {}) },
    });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.stderr.on('data', (d) => (text += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`pgbench exited ${code}: ${text.slice(-300)}`)),
    );
  });
  fs.rmSync(script, { force: true });
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? NaN);
  const lat = /latency average = ([\d.]+) ms/.exec(out)?.[1];
  return { tps: Math.round(tps), latencyAvgMs: lat ? Number(lat) : null, clients };
}

/** One shape's ceiling: warm-up, then the Node driver and pgbench, each on empty tables. */
async function measureShape(
  url: string,
  shape: Shape,
  opts: { connections: number; loops: number; seconds: number; warmup: number },
): Promise<OneCeiling> {
  await reset(url, shape);
  if (opts.warmup > 0) await nodeDriver(url, opts.connections, opts.loops, opts.warmup, shape);
  await reset(url, shape);
  const node = await nodeDriver(url, opts.connections, opts.loops, opts.seconds, shape);
  let bench: OneCeiling['pgbench'] = null;
  const bin = hasPgbench();
  if (bin) {
    await reset(url, shape);
    try {
      bench = await pgbenchDriver(bin, url, opts.connections, opts.seconds, shape);
    } catch (err) {
      console.log(`  pgbench failed (${(err as Error).message.slice(0, 120)}); the Node figure stands alone`);
    }
  }
  return { tps: Math.max(node.tps, bench?.tps ?? 0), node, pgbench: bench };
}

/**
 * Measures the one-insert ceiling and the booking-shaped write's, in that order, each with
 * `connections` database sessions (the service's pool) and `loops` requests in flight from Node
 * (the bench's connections), warm-up then `seconds` measured. `booking: false` skips the second.
 */
export async function measureWriteCeiling(
  url: string,
  opts: { connections: number; loops: number; seconds: number; warmup: number; booking?: boolean },
): Promise<CeilingResult> {
  const insert = await measureShape(url, SHAPES.insert, opts);
  const booking = opts.booking === false ? null : await measureShape(url, SHAPES.booking, opts);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query('DROP TABLE IF EXISTS bench_ceiling, bench_ceiling_audit, bench_ceiling_events, bench_ceiling_idem');
  await c.end();
  return { ...insert, booking };
}
