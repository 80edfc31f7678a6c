// One service process owns an embedded data directory at a time. PostgreSQL's own postmaster.pid
// lock already refuses a second server on the same files; this owner file (beside the data
// directory, which initdb needs empty) says which process started it, so that a second `npm start`
// gets a clear message, and a server left running by a process that was killed is recognised as an
// orphan and stopped before a new one starts.
import fs from 'node:fs';
import path from 'node:path';

export class DataDirInUseError extends Error {}

export function ownerFile(pgdata: string): string {
  return path.join(path.dirname(pgdata), `${path.basename(pgdata)}.owner`);
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of the live process that owns pgdata, or null. */
export function liveOwner(pgdata: string): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(ownerFile(pgdata), 'utf8').trim());
  } catch {
    return null;
  }
  return pid !== process.pid && alive(pid) ? pid : null;
}

export function claimOwnership(pgdata: string): void {
  const owner = liveOwner(pgdata);
  if (owner !== null) {
    throw new DataDirInUseError(
      `the embedded database in ${path.dirname(pgdata)} is in use by another process (pid ${owner}): stop it first, or give this one another DATA_DIR`,
    );
  }
  fs.mkdirSync(path.dirname(pgdata), { recursive: true });
  fs.writeFileSync(ownerFile(pgdata), `${process.pid}\n`);
}

export function releaseOwnership(pgdata: string): void {
  try {
    if (Number(fs.readFileSync(ownerFile(pgdata), 'utf8').trim()) === process.pid) fs.rmSync(ownerFile(pgdata));
  } catch {
    // not ours, or already gone
  }
}

// A pid from an old postmaster.pid may since have been given to another program.
function isPostgres(pid: number): boolean {
  if (process.platform !== 'linux') return true;
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return false;
  }
}

/** The pid in postmaster.pid when that server is running, else null. */
export function runningServer(pgdata: string): { pid: number; ready: boolean } | null {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  if (!alive(pid) || !isPostgres(pid)) return null;
  return { pid, ready: lines[7]?.trim() === 'ready' };
}

/**
 * A server still running on pgdata while no process owns it was left by a service that died without
 * stopping it (kill -9, a crash, a lost machine session). Fast shutdown, then an immediate one.
 */
export async function stopOrphan(pgdata: string, log: (level: 'warn', line: string) => void): Promise<void> {
  const server = runningServer(pgdata);
  if (!server) return;
  log(
    'warn',
    `stopping the PostgreSQL server (pid ${server.pid}) left running on ${pgdata} by a service that did not stop it`,
  );
  process.kill(server.pid, 'SIGINT');
  for (let waited = 0; alive(server.pid); waited += 50) {
    if (waited === 30_000) process.kill(server.pid, 'SIGQUIT');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
