// The embedded server listens on a Unix socket only. The socket lives in its data directory (only
// the server's user can enter it), unless that path is too long for a socket name (about 100 bytes
// on Linux and macOS); then in a directory of its own under the system's temporary directory.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunAs } from './binaries.ts';

/** Names the socket file (.s.PGSQL.5432); nothing listens on a TCP port. */
export const SOCKET_PORT = 5432;
const MAX_SOCKET_PATH = 100;

export function socketDirFor(pgdata: string, who: RunAs = {}): string {
  if (path.join(pgdata, `.s.PGSQL.${SOCKET_PORT}`).length <= MAX_SOCKET_PATH) return pgdata;
  const dir = path.join(os.tmpdir(), `bbo-pg-${crypto.createHash('sha256').update(pgdata).digest('hex').slice(0, 12)}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (who.uid !== undefined) fs.chownSync(dir, who.uid, who.gid!);
  return dir;
}

/** A connection string for a database of the cluster whose socket is in socketDir. */
export function socketUrl(socketDir: string, database = 'postgres'): string {
  return `postgresql://postgres@${encodeURIComponent(socketDir)}:${SOCKET_PORT}/${database}`;
}
