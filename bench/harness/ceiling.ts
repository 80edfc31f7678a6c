// The database's own write limit on this machine, measured in the same run as the scenarios: one
// transaction inserting one row into a table with the same exclusion constraint as appointments
// (store_id =, unit_id =, tstzrange &&, through btree_gist). Every write scenario is reported as a
// ratio to it, beside its ratio to its own SQL.
//
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

export interface CeilingResult {
  /** The figure ratios use: the higher of node and pgbench. */
  tps: number;
  node: { tps: number; p50: number; p99: number; connections: number; loops: number };
  pgbench: { tps: number; latencyAvgMs: number | null; clients: number } | null;
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

async function reset(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(SETUP);
  } finally {
    await c.end();
  }
}

async function nodeDriver(url: string, connections: number, loops: number, seconds: number) {
  const pool = new pg.Pool({ connectionString: url, max: connections });
  const latencies: number[] = [];
  try {
    const stmt = { name: 'bench_ceiling_insert', text: INSERT };
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
    const pct = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] * 100) / 100;
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

async function pgbenchDriver(bin: string, url: string, clients: number, seconds: number) {
  const script = path.join(os.tmpdir(), `bench-ceiling-${process.pid}.sql`);
  fs.writeFileSync(script, INSERT.replace(/\s+/g, ' ') + ';\n');
  const u = new URL(url);
  const argv = ['-n', '-M', 'prepared', '-c', String(clients), '-j', String(Math.min(clients, os.cpus().length)), '-T', String(seconds), '-f', script,
    '-h', u.hostname, '-p', u.port || '5432', '-U', decodeURIComponent(u.username || 'postgres'), decodeURIComponent(u.pathname.slice(1))];
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(bin, argv, { env: { ...process.env, ...(u.password ? { PGPASSWORD: decodeURIComponent(u.password) } : {}) } });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.stderr.on('data', (d) => (text += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`pgbench exited ${code}: ${text.slice(-300)}`))));
  });
  fs.rmSync(script, { force: true });
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? NaN);
  const lat = /latency average = ([\d.]+) ms/.exec(out)?.[1];
  return { tps: Math.round(tps), latencyAvgMs: lat ? Number(lat) : null, clients };
}

/**
 * Measures the one-insert ceiling: `connections` database sessions (the service's pool), `loops`
 * requests in flight from Node (the bench's connections), warm-up then `seconds` measured.
 */
export async function measureWriteCeiling(url: string, opts: { connections: number; loops: number; seconds: number; warmup: number }): Promise<CeilingResult> {
  await reset(url);
  if (opts.warmup > 0) await nodeDriver(url, opts.connections, opts.loops, opts.warmup);
  await reset(url);
  const node = await nodeDriver(url, opts.connections, opts.loops, opts.seconds);
  let bench: CeilingResult['pgbench'] = null;
  const bin = hasPgbench();
  if (bin) {
    await reset(url);
    try {
      bench = await pgbenchDriver(bin, url, opts.connections, opts.seconds);
    } catch (err) {
      console.log(`  pgbench failed (${(err as Error).message.slice(0, 120)}); the Node figure stands alone`);
    }
  }
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query('DROP TABLE IF EXISTS bench_ceiling');
  await c.end();
  return { tps: Math.max(node.tps, bench?.tps ?? 0), node, pgbench: bench };
}
