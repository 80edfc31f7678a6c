// The failover topology of deploy/patroni/, built on this machine from Debian's packages (patroni,
// etcd-server, haproxy, postgresql-15): one etcd member, two Patroni nodes running PostgreSQL 15 as
// the system user postgres, and HAProxy in front (5470 writes, 5471 reads). Everything lives under
// /tmp/bbo-patroni (the paths the YAML files name); the processes are started detached with their
// pids written there, so `down` stops exactly what `up` started, from this process or another.
// Idempotent: `up` tears down whatever an earlier run left first. Runs as root.
import { spawn, execFile } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import pg from 'pg';
import { REPO_ROOT, sleep } from './env.ts';
import type { Queryable } from '../src/platform/db/port.ts';
import { isUnavailable } from '../src/platform/db/pg-errors.ts';
import { haproxySettled } from './haproxy-stats.ts';

export const run = promisify(execFile);

export const BASE = '/tmp/bbo-patroni';
/** Where `down` leaves the last run's logs. */
export const LOGS = '/tmp/bbo-patroni-logs';
export const DEPLOY = path.join(REPO_ROOT, 'deploy/patroni');
export const ETCD_URL = 'http://127.0.0.1:23790';
export const WRITE_URL = 'postgres://postgres@127.0.0.1:5470/postgres';
export const READ_URL = 'postgres://postgres@127.0.0.1:5471/postgres';

export type NodeName = 'node1' | 'node2';
export const NODES: Record<NodeName, { pgPort: number; restPort: number }> = {
  node1: { pgPort: 5461, restPort: 18008 },
  node2: { pgPort: 5462, restPort: 18009 },
};
export const other = (n: NodeName): NodeName => (n === 'node1' ? 'node2' : 'node1');
export const nodeUrl = (n: NodeName, database = 'postgres') =>
  `postgres://postgres@127.0.0.1:${NODES[n].pgPort}/${database}`;

const pidFile = (what: string) => path.join(BASE, `${what}.pid`);
// Signal 0 only asks whether the process exists.
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
export const readPid = (file: string): number | null => {
  try {
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0].trim());
    return Number.isInteger(pid) && pid > 1 ? pid : null;
  } catch {
    return null;
  }
};

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  return { uid, gid };
}

/** Starts a detached daemon with its output in BASE/<name>.log and its pid in BASE/<name>.pid. */
function daemon(name: string, cmd: string, args: string[], ids?: { uid: number; gid: number }): number {
  const log = openSync(path.join(BASE, `${name}.log`), 'a');
  const child = spawn(cmd, args, {
    detached: true,
    stdio: ['ignore', log, log],
    cwd: BASE,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: ids ? '/var/lib/postgresql' : (process.env.HOME ?? '/root'),
      LANG: 'C.UTF-8',
    },
    ...(ids ?? {}),
  });
  closeSync(log);
  child.unref();
  writeFileSync(pidFile(name), String(child.pid));
  return child.pid!;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not happen in ${timeoutMs} ms (logs in ${BASE})`);
    await sleep(200);
  }
}

/** GET on a node's Patroni REST API: the status code (0 when it does not answer). */
export async function rest(n: NodeName, pathname: string): Promise<{ status: number; body: any }> {
  try {
    const res = await fetch(`http://127.0.0.1:${NODES[n].restPort}${pathname}`, { signal: AbortSignal.timeout(1_000) });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body };
  } catch {
    return { status: 0, body: null };
  }
}

/** The node Patroni says leads, asked of whichever node answers (null while there is none). */
export async function leader(): Promise<NodeName | null> {
  for (const n of Object.keys(NODES) as NodeName[]) {
    const r = await rest(n, '/cluster');
    const lead =
      r.status === 200 ? r.body?.members?.find((m: any) => m.role === 'leader' && m.state === 'running') : null;
    if (lead) return lead.name as NodeName;
  }
  return null;
}

/** The leader, waited for (a failover may be under way). */
export async function waitLeader(timeoutMs: number): Promise<NodeName> {
  let found: NodeName | null = null;
  await waitFor('a leader', async () => (found = await leader()) !== null, timeoutMs);
  return found!;
}

/**
 * A database handle that waits out an outage: a statement that fails as unavailable is sent again
 * (a new connection, through HAProxy, to whoever is primary) for up to patienceMs. For the drill's
 * own checks, so a primary lost while they run delays them instead of failing them.
 */
export function patient<T extends Queryable>(db: T, patienceMs = 60_000): Queryable {
  return {
    async query(sql, params, options) {
      const deadline = Date.now() + patienceMs;
      for (;;) {
        try {
          return await db.query(sql, params, options);
        } catch (err) {
          if (!isUnavailable(err) || Date.now() > deadline) throw err;
          await sleep(250);
        }
      }
    },
  };
}

/** `SELECT 1` through a URL, in a fresh connection, bounded. */
export async function answers(url: string, sql = 'SELECT 1'): Promise<any[] | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000, query_timeout: 2_000 });
  client.on('error', () => {}); // a session HAProxy cuts must not end the process
  try {
    await client.connect();
    return (await client.query(sql)).rows;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

function stopPid(file: string, signal: NodeJS.Signals = 'SIGKILL'): void {
  const pid = readPid(file);
  if (pid && alive(pid)) process.kill(pid, signal);
  rmSync(file, { force: true });
}

/** The node's postmaster and every process it forked (a machine lost takes them all). */
async function postgresPids(n: NodeName): Promise<number[]> {
  const pm = readPid(path.join(BASE, n, 'data', 'postmaster.pid'));
  if (!pm || !alive(pm)) return [];
  const children = await run('pgrep', ['-P', String(pm)]).then(
    (r) => r.stdout.split('\n').filter(Boolean).map(Number),
    () => [],
  );
  return [pm, ...children];
}

/**
 * kill -9 of a node's Patroni and its PostgreSQL, postmaster and every backend: the machine is gone.
 * Patroni first (it would start PostgreSQL again); the postmaster is frozen (SIGSTOP) before its
 * children are listed, so no backend forked in between survives as an orphan that could still answer.
 */
export async function killNode(n: NodeName): Promise<void> {
  stopPid(pidFile(`patroni-${n}`));
  const pm = readPid(path.join(BASE, n, 'data', 'postmaster.pid'));
  if (pm && alive(pm)) process.kill(pm, 'SIGSTOP');
  // Backends first, the frozen postmaster last: a backend that outlives its postmaster for a moment
  // sends its idle client a FATAL 57P01 ("unexpected postmaster exit"), which a machine that is gone
  // never does. (A postmaster crashing on a live machine does; that is another bad day.)
  for (const pid of (await postgresPids(n)).reverse()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/** Starts (or restarts) a node's Patroni: on a data directory that was primary, it rewinds and follows. */
export async function startNode(n: NodeName): Promise<void> {
  daemon(`patroni-${n}`, '/usr/bin/patroni', [path.join(BASE, `${n}.yml`)], await postgresIds());
}

export function startEtcd(): void {
  daemon('etcd', '/usr/bin/etcd', ['--config-file', path.join(BASE, 'etcd.yml')]);
}
export const killEtcd = () => stopPid(pidFile('etcd'));

export async function startHaproxy(): Promise<void> {
  // -D: daemonises itself and writes BASE/haproxy.pid (the config's pidfile).
  await run('/usr/sbin/haproxy', ['-D', '-f', path.join(BASE, 'haproxy.cfg')]);
}
export const killHaproxy = () => stopPid(pidFile('haproxy'));

/** HAProxy's checks agree with Patroni: `lead` alone takes writes and (with `replica`) the other alone reads. */
export async function waitHaproxySettled(lead: NodeName, timeoutMs: number, replica = true): Promise<void> {
  await waitFor(
    "HAProxy's checks to settle",
    () => haproxySettled(path.join(BASE, 'haproxy.sock'), lead, other(lead), replica),
    timeoutMs,
  );
}

export async function etcdHealthy(): Promise<boolean> {
  const res = await fetch(`${ETCD_URL}/health`, { signal: AbortSignal.timeout(1_000) }).catch(() => null);
  return !!res && res.status === 200;
}

/** Waits until `n` streams from the leader as its synchronous standby (or as a plain replica when sync is off). */
export async function waitReplica(n: NodeName, timeoutMs: number, synchronous = true): Promise<void> {
  await waitFor(
    `${n} as a ${synchronous ? 'synchronous ' : ''}replica`,
    async () => {
      const r = await rest(n, '/cluster');
      const m = r.body?.members?.find((x: any) => x.name === n);
      return (
        !!m &&
        m.state === 'running' &&
        (synchronous ? m.role === 'sync_standby' : m.role === 'replica' || m.role === 'sync_standby')
      );
    },
    timeoutMs,
  );
}

export async function waitWritable(timeoutMs: number): Promise<void> {
  await waitFor(
    'a writable primary behind HAProxy',
    async () => {
      const rows = await answers(WRITE_URL, 'SELECT pg_is_in_recovery() AS r');
      return !!rows && rows[0].r === false;
    },
    timeoutMs,
  );
}

/** Stops everything under BASE that a run started (by pid file), and removes BASE. */
export async function clusterDown(): Promise<void> {
  killHaproxy();
  for (const n of Object.keys(NODES) as NodeName[]) await killNode(n);
  killEtcd();
  // kill -9 returns before the processes are gone: wait until the ports are free.
  await waitFor(
    'the old processes to exit',
    async () => {
      for (const n of Object.keys(NODES) as NodeName[]) if ((await postgresPids(n)).length) return false;
      return !(await etcdHealthy());
    },
    10_000,
  ).catch(() => {});
  // The logs of the last run stay readable (a failed CI run is diagnosed from them).
  if (existsSync(BASE)) {
    rmSync(LOGS, { recursive: true, force: true });
    mkdirSync(LOGS, { recursive: true });
    for (const f of ['etcd.log', 'patroni-node1.log', 'patroni-node2.log'])
      if (existsSync(path.join(BASE, f))) copyFileSync(path.join(BASE, f), path.join(LOGS, f));
  }
  rmSync(BASE, { recursive: true, force: true });
}

/**
 * Builds the topology from nothing: etcd, node1 (bootstraps, leader), HAProxy, and node2 (copied
 * from node1, then its synchronous standby). Resolves once writes go through HAProxy to node1; with
 * deferStandby the standby's copy goes on meanwhile and `standby` resolves once it streams
 * synchronously and HAProxy reads from it (a caller can create its database and start its
 * processes in those seconds), otherwise it is waited for here.
 */
export async function clusterUp(
  o: { log?: (line: string) => void; deferStandby?: boolean } = {},
): Promise<{ standby: Promise<void> }> {
  const log = o.log ?? (() => {});
  for (const bin of ['/usr/bin/patroni', '/usr/bin/etcd', '/usr/sbin/haproxy', '/usr/lib/postgresql/15/bin/postgres']) {
    if (!existsSync(bin))
      throw new Error(`${bin} is missing: apt-get install -y patroni etcd-server haproxy postgresql-15`);
  }
  await clusterDown();
  const ids = await postgresIds();
  mkdirSync(BASE, { recursive: true });
  for (const n of Object.keys(NODES)) {
    mkdirSync(path.join(BASE, n), { recursive: true, mode: 0o700 });
    await run('chown', ['postgres:postgres', path.join(BASE, n)]);
  }
  for (const f of ['etcd.yml', 'node1.yml', 'node2.yml', 'haproxy.cfg'])
    copyFileSync(path.join(DEPLOY, f), path.join(BASE, f));
  // Patroni writes its log beside the YAML (BASE, as postgres): the directory is theirs to write in.
  await run('chown', [`${ids.uid}:${ids.gid}`, BASE]);
  const t0 = Date.now();
  startEtcd();
  await waitFor('etcd', etcdHealthy, 20_000);
  log(`etcd up (${Date.now() - t0} ms)`);
  await startNode('node1');
  await waitFor('node1 as the leader', async () => (await rest('node1', '/primary')).status === 200, 60_000);
  log(`node1 bootstrapped as primary (${Date.now() - t0} ms)`);
  // node2 copies node1 (pg_basebackup) while HAProxy starts and the caller goes on.
  await startNode('node2');
  await startHaproxy();
  await waitHaproxySettled('node1', 15_000, false);
  await waitWritable(10_000);
  log(`HAProxy up: writes ${WRITE_URL} (${Date.now() - t0} ms)`);
  const standby = (async () => {
    await waitReplica('node2', 90_000);
    log(`node2 streaming as the synchronous standby (${Date.now() - t0} ms)`);
    await waitHaproxySettled('node1', 15_000);
    await waitFor('a replica behind HAProxy', async () => !!(await answers(READ_URL)), 10_000);
    log(`HAProxy reads from node2: ${READ_URL} (${Date.now() - t0} ms)`);
  })();
  // Awaited by the caller later: a failure before then must not count as unhandled.
  standby.catch(() => {});
  if (!o.deferStandby) await standby;
  return { standby };
}
