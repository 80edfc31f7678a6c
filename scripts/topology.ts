// node scripts/topology.ts up|down|status: the deployment past one machine, built on this one
// (docs/operations.md): a PostgreSQL 15 primary, a streaming replica, PgBouncer 1.18 in transaction
// mode, two API processes and a worker.
//
//   primary   127.0.0.1:5441  (cluster 15/bbo_rel_primary)
//   replica   127.0.0.1:5442  (cluster 15/bbo_rel_replica, pg_basebackup -R)
//   pgbouncer 127.0.0.1:5443  (transaction pooling; config, log and pid in /tmp/bbo-topology)
//   api       127.0.0.1:3101 and :3102  (DATABASE_URL through PgBouncer, DATABASE_READ_URL the replica)
//   worker    webhooks and messages (WORKER_ENABLED=false on the API processes)
//
// Env: TOPOLOGY_APPLY_DELAY_MS (the replica's recovery_min_apply_delay; 0), REDIS_URL (shared by
// the API processes: rate limits and write positions), AUTH_SECRET (a development one otherwise).
// Needs root (pg_createcluster) and the Debian packages postgresql-15 and pgbouncer.
import { spawn } from 'node:child_process';
import { openSync, readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { DEFAULT_TOPOLOGY, topologyDown, topologyUp, urlOf, waitForReplay } from '../reliability/topology.ts';

const o = { ...DEFAULT_TOPOLOGY, applyDelayMs: Number(process.env.TOPOLOGY_APPLY_DELAY_MS ?? 0) };
const DATABASE = 'bbo_topology';
const API_PORTS = [3101, 3102];
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const STATE = path.join(o.dir, 'processes.json');

const env = (extra: Record<string, string>) => ({
  PATH: process.env.PATH ?? '',
  AUTH_SECRET: process.env.AUTH_SECRET ?? 'topology-development-secret-0123456789abcdef',
  ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  LOG_LEVEL: 'info',
  // Through PgBouncer in transaction mode: no named prepared statements (1.18 cannot keep them).
  DATABASE_URL: urlOf(o.pgbouncerPort, DATABASE),
  DB_PREPARED_STATEMENTS: 'false',
  ...extra,
});

function start(name: string, entry: string, extra: Record<string, string>): number {
  const log = openSync(path.join(o.dir, `${name}.log`), 'a');
  const child = spawn(process.execPath, [path.join(ROOT, entry)], {
    cwd: ROOT,
    env: env(extra),
    detached: true,
    stdio: ['ignore', log, log],
  });
  child.unref();
  return child.pid!;
}

async function waitReady(url: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become ready (see ${o.dir}/*.log)`);
}

async function up() {
  const t0 = Date.now();
  await topologyUp(o);
  const admin = new pg.Client({ connectionString: urlOf(o.primaryPort) });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  mkdirSync(o.dir, { recursive: true });
  const pids: Record<string, number> = {};
  // The first API process migrates; the others wait for it (the migration's transaction lock).
  pids.api1 = start('api1', 'src/server.ts', {
    PORT: String(API_PORTS[0]),
    WORKER_ENABLED: 'false',
    DATABASE_READ_URL: urlOf(o.replicaPort, DATABASE),
  });
  writeFileSync(STATE, JSON.stringify(pids));
  await waitReady(`http://127.0.0.1:${API_PORTS[0]}`);
  await waitForReplay(o, DATABASE);
  pids.api2 = start('api2', 'src/server.ts', {
    PORT: String(API_PORTS[1]),
    WORKER_ENABLED: 'false',
    DATABASE_READ_URL: urlOf(o.replicaPort, DATABASE),
  });
  pids.worker = start('worker', 'src/worker.ts', {});
  writeFileSync(STATE, JSON.stringify(pids));
  await waitReady(`http://127.0.0.1:${API_PORTS[1]}`);
  console.log(`topology up in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  status();
}

function status() {
  console.log(`primary    ${urlOf(o.primaryPort, DATABASE)}`);
  console.log(
    `replica    ${urlOf(o.replicaPort, DATABASE)}${o.applyDelayMs ? ` (recovery_min_apply_delay ${o.applyDelayMs} ms)` : ''}`,
  );
  console.log(`pgbouncer  ${urlOf(o.pgbouncerPort, DATABASE)} (transaction mode)`);
  for (const port of API_PORTS) console.log(`api        http://127.0.0.1:${port}`);
  if (existsSync(STATE)) console.log(`processes  ${readFileSync(STATE, 'utf8')} (logs in ${o.dir})`);
}

async function down() {
  if (existsSync(STATE)) {
    const pids = JSON.parse(readFileSync(STATE, 'utf8')) as Record<string, number>;
    for (const pid of Object.values(pids)) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
    }
    for (const pid of Object.values(pids)) {
      for (let i = 0; i < 100; i++) {
        try {
          process.kill(pid, 0);
        } catch {
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
  await topologyDown(o);
  console.log('topology down');
}

const command = process.argv[2];
if (command === 'up') await up();
else if (command === 'down') await down();
else if (command === 'status') status();
else {
  console.error('usage: node scripts/topology.ts up|down|status');
  process.exit(2);
}
