// The deployment past one machine, built on this one from Debian's packages: a PostgreSQL 15
// primary, a streaming replica of it (pg_basebackup -R), and PgBouncer 1.18 in transaction mode in
// front of the primary. scripts/topology.ts adds two API processes and a worker; the replica proof
// (proofs/replica.ts) and the pooled run of the other proofs build their databases through it.
// Clusters are created and dropped here (pg_createcluster / pg_dropcluster), so a fresh machine
// needs only the packages. Runs as root (pg_createcluster); PgBouncer runs as postgres.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync, existsSync, readFileSync, chmodSync } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import pg from 'pg';

const run = promisify(execFile);

export interface TopologyOptions {
  /** Cluster names: `${prefix}_primary`, `${prefix}_replica`. */
  prefix: string;
  primaryPort: number;
  replicaPort: number;
  pgbouncerPort: number;
  /** The replica's recovery_min_apply_delay in ms (0: none). */
  applyDelayMs: number;
  /** Where PgBouncer's config, log and pid live. */
  dir: string;
}

export const DEFAULT_TOPOLOGY: TopologyOptions = {
  prefix: 'bbo_rel',
  primaryPort: 5441,
  replicaPort: 5442,
  pgbouncerPort: 5443,
  applyDelayMs: 0,
  dir: '/tmp/bbo-topology',
};

// What pg.adapter.ts asks for in its startup packet (SESSION_OPTIONS), set on the server instead:
// PgBouncer drops the startup options, so a pooled session gets the server's defaults.
const SESSION_DEFAULTS = `timezone = 'UTC'
random_page_cost = 1.1
max_parallel_workers_per_gather = 0
jit = off
`;

const PRIMARY_CONF = `listen_addresses = '127.0.0.1'
shared_preload_libraries = 'pg_stat_statements'
max_connections = 300
wal_level = replica
max_wal_senders = 10
wal_keep_size = '256MB'
${SESSION_DEFAULTS}`;

const replicaConf = (delayMs: number) => `listen_addresses = '127.0.0.1'
shared_preload_libraries = 'pg_stat_statements'
max_connections = 300
hot_standby = on
hot_standby_feedback = on
${delayMs > 0 ? `recovery_min_apply_delay = '${delayMs}ms'\n` : ''}${SESSION_DEFAULTS}`;

export const urlOf = (port: number, database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;

async function sh(cmd: string, args: string[]): Promise<string> {
  const { stdout } = await run(cmd, args, { maxBuffer: 8 * 1024 * 1024 });
  return stdout;
}

async function clusterExists(name: string): Promise<boolean> {
  const out = await sh('pg_lsclusters', ['-h']);
  return out.split('\n').some((line) => line.split(/\s+/)[1] === name);
}

async function waitForServer(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`${url} did not answer: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

async function createCluster(name: string, port: number, conf: string): Promise<string> {
  if (await clusterExists(name)) await sh('pg_dropcluster', ['--stop', '15', name]);
  await sh('pg_createcluster', ['15', name, '-p', String(port), '--', '--auth=trust', '--no-sync']);
  writeFileSync(`/etc/postgresql/15/${name}/conf.d/bbo.conf`, conf);
  return `/var/lib/postgresql/15/${name}`;
}

/** The primary, started and answering. */
export async function startPrimary(o: TopologyOptions): Promise<void> {
  await createCluster(`${o.prefix}_primary`, o.primaryPort, PRIMARY_CONF);
  await sh('pg_ctlcluster', ['15', `${o.prefix}_primary`, 'start']);
  await waitForServer(urlOf(o.primaryPort));
}

/**
 * A streaming replica of the primary: pg_basebackup -R -c fast (an immediate checkpoint: the default
 * spreads it over minutes) into an empty directory (as postgres), the
 * primary's configuration files beside it, then pg_createcluster adopts the directory (no initdb)
 * and rewrites the paths and port. Started and answering.
 */
export async function startReplica(o: TopologyOptions): Promise<void> {
  const name = `${o.prefix}_replica`;
  if (await clusterExists(name)) await sh('pg_dropcluster', ['--stop', '15', name]);
  const dir = `/var/lib/postgresql/15/${name}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  await sh('chown', ['postgres:postgres', dir]);
  await sh('runuser', [
    '-u',
    'postgres',
    '--',
    'pg_basebackup',
    '-h',
    '127.0.0.1',
    '-p',
    String(o.primaryPort),
    '-U',
    'postgres',
    '-D',
    dir,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
  ]);
  for (const file of ['postgresql.conf', 'pg_hba.conf', 'pg_ident.conf'])
    copyFileSync(`/etc/postgresql/15/${o.prefix}_primary/${file}`, path.join(dir, file));
  await sh('chown', [
    'postgres:postgres',
    ...['postgresql.conf', 'pg_hba.conf', 'pg_ident.conf'].map((f) => path.join(dir, f)),
  ]);
  await sh('pg_createcluster', ['15', name, '-p', String(o.replicaPort), '-d', dir]);
  mkdirSync(`/etc/postgresql/15/${name}/conf.d`, { recursive: true });
  writeFileSync(`/etc/postgresql/15/${name}/conf.d/bbo.conf`, replicaConf(o.applyDelayMs));
  await sh('pg_ctlcluster', ['15', name, 'start']);
  await waitForServer(urlOf(o.replicaPort));
}

/** Stops the replica (fast shutdown: its sessions are ended); startReplicaAgain brings it back. */
export async function stopReplica(o: TopologyOptions): Promise<void> {
  await sh('pg_ctlcluster', ['15', `${o.prefix}_replica`, 'stop', '-m', 'fast']);
}

export async function startReplicaAgain(o: TopologyOptions): Promise<void> {
  await sh('pg_ctlcluster', ['15', `${o.prefix}_replica`, 'start']);
  await waitForServer(urlOf(o.replicaPort));
}

/**
 * PgBouncer 1.18 in transaction mode in front of the primary, with its own config in o.dir (not
 * /etc/pgbouncer), run as postgres (it refuses root). Every database name is routed to the
 * primary (the `*` line), so databases created after it started (the proofs') are reachable.
 * The pg adapter's startup `options` are ignored here and carried by the server (SESSION_DEFAULTS).
 */
export async function startPgbouncer(o: TopologyOptions): Promise<void> {
  mkdirSync(o.dir, { recursive: true });
  chmodSync(o.dir, 0o777);
  await stopPgbouncer(o);
  writeFileSync(path.join(o.dir, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(
    path.join(o.dir, 'pgbouncer.ini'),
    `[databases]
* = host=127.0.0.1 port=${o.primaryPort}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${o.pgbouncerPort}
unix_socket_dir =
auth_type = trust
auth_file = ${o.dir}/userlist.txt
admin_users = postgres
pool_mode = transaction
max_client_conn = 2000
default_pool_size = 60
max_db_connections = 120
ignore_startup_parameters = options
server_reset_query =
logfile = ${o.dir}/pgbouncer.log
pidfile = ${o.dir}/pgbouncer.pid
`,
  );
  await sh('runuser', ['-u', 'postgres', '--', 'pgbouncer', '-d', path.join(o.dir, 'pgbouncer.ini')]);
  await waitForServer(urlOf(o.pgbouncerPort));
}

export async function stopPgbouncer(o: TopologyOptions): Promise<void> {
  const pidFile = path.join(o.dir, 'pgbouncer.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 'SIGINT'); // immediate shutdown
  } catch {
    return;
  }
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The replica has replayed everything the primary had written when this was called. */
export async function waitForReplay(o: TopologyOptions, database = 'postgres', timeoutMs = 30_000): Promise<void> {
  const primary = new pg.Client({ connectionString: urlOf(o.primaryPort, database) });
  await primary.connect();
  let target: string;
  try {
    target = (await primary.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn;
  } finally {
    await primary.end();
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const replica = new pg.Client({ connectionString: urlOf(o.replicaPort, database), connectionTimeoutMillis: 1_000 });
    try {
      await replica.connect();
      const ok = (await replica.query<{ ok: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [target]))
        .rows[0].ok;
      if (ok) return;
    } catch {
      /* the database may not exist on the replica yet */
    } finally {
      await replica.end().catch(() => {});
    }
    if (Date.now() > deadline) throw new Error(`the replica did not replay to ${target} in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Builds primary, replica and PgBouncer. */
export async function topologyUp(
  o: TopologyOptions = DEFAULT_TOPOLOGY,
  parts = { replica: true, pgbouncer: true },
): Promise<void> {
  await startPrimary(o);
  if (parts.replica) await startReplica(o);
  if (parts.pgbouncer) await startPgbouncer(o);
}

/** Stops PgBouncer and drops both clusters (whatever state they are in). */
export async function topologyDown(o: TopologyOptions = DEFAULT_TOPOLOGY): Promise<void> {
  await stopPgbouncer(o).catch(() => {});
  for (const name of [`${o.prefix}_replica`, `${o.prefix}_primary`]) {
    if (await clusterExists(name).catch(() => false))
      await sh('pg_dropcluster', ['--stop', '15', name]).catch(() => {});
  }
  rmSync(o.dir, { recursive: true, force: true });
}
