// A consistent copy of the embedded PostgreSQL's data directory while it runs, with PostgreSQL's
// low-level backup API (what pg_basebackup does over the replication protocol; npm's PostgreSQL
// package ships no pg_basebackup): pg_backup_start, copy the files, pg_backup_stop, then the WAL
// written meanwhile (the server keeps wal_keep_size of it: src/platform/db/embedded/cluster.ts) and
// the backup label. Started from that copy, PostgreSQL replays the WAL to a consistent state.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

// Contents PostgreSQL's documentation says to leave out of a base backup (rebuilt at start), and
// the running server's own files (its pid file, options, socket).
const EMPTY_DIRS = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
]);
const SKIP_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map']);

function copyTree(from: string, to: string, top: boolean): void {
  fs.mkdirSync(to, { recursive: true, mode: 0o700 });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const name = entry.name;
    if (name.startsWith('.s.PGSQL') || name.startsWith('pgsql_tmp') || (top && SKIP_FILES.has(name))) continue;
    const src = path.join(from, name);
    const dst = path.join(to, name);
    if (entry.isDirectory()) {
      if (top && EMPTY_DIRS.has(name)) fs.mkdirSync(dst, { recursive: true, mode: 0o700 });
      else copyTree(src, dst, false);
    } else if (entry.isFile()) {
      try {
        fs.copyFileSync(src, dst);
      } catch (err) {
        // A relation dropped while the copy runs: its removal is in the WAL that is replayed.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
  }
}

/** Copies the running cluster at pgdata (reached at url) into `to`, ready to start. */
export async function copyRunningCluster(
  url: string,
  pgdata: string,
  to: string,
): Promise<{ startLsn: string; stopLsn: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // fast: an immediate checkpoint, so the copy starts now rather than at the next scheduled one.
    const start = await client.query<{ lsn: string }>(`SELECT pg_backup_start('npm run backup', true)::text AS lsn`);
    try {
      copyTree(pgdata, to, true);
    } catch (err) {
      await client.query('SELECT pg_backup_stop(false)').catch(() => {});
      throw err;
    }
    const stop = await client.query<{ lsn: string; labelfile: string; spcmapfile: string }>(
      `SELECT lsn::text, labelfile, spcmapfile FROM pg_backup_stop(false)`,
    );
    const { lsn, labelfile, spcmapfile } = stop.rows[0];
    // Every WAL segment from the backup's checkpoint on: copied after the stop, so it holds the end too.
    const walFrom = path.join(pgdata, 'pg_wal');
    const walTo = path.join(to, 'pg_wal');
    fs.mkdirSync(path.join(walTo, 'archive_status'), { recursive: true, mode: 0o700 });
    for (const name of fs.readdirSync(walFrom)) {
      if (/^[0-9A-F]{24}$/.test(name)) fs.copyFileSync(path.join(walFrom, name), path.join(walTo, name));
    }
    fs.writeFileSync(path.join(to, 'backup_label'), labelfile);
    if (spcmapfile) fs.writeFileSync(path.join(to, 'tablespace_map'), spcmapfile);
    return { startLsn: start.rows[0].lsn, stopLsn: lsn };
  } finally {
    await client.end();
  }
}
