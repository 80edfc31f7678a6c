// npm run restore -- FILE [--force]: puts a backup made by `npm run backup` back as the embedded
// database of DATA_DIR, then starts it once (replaying the WAL the backup holds) to check that
// it opens, and stops it. Refused while a service runs on DATA_DIR. An existing database is only
// replaced with --force, and then moved aside (DATA_DIR/postgres.before-restore-<time>), not deleted.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { loadConfigOrExit } from '../src/config.ts';
import { embeddedPgdata } from '../src/platform/db/embedded-postgres.adapter.ts';
import { startCluster } from '../src/platform/db/embedded/cluster.ts';
import { liveOwner, runningServer } from '../src/platform/db/embedded/ownership.ts';
import { runAs } from '../src/platform/db/embedded/binaries.ts';

const config = loadConfigOrExit();
const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
if (config.databaseUrl || !file || !fs.existsSync(file)) {
  console.error(
    config.databaseUrl
      ? 'DATABASE_URL is set: restore the PostgreSQL server with its own tools (docs/backups.md).'
      : 'usage: npm run restore -- FILE [--force] (a .tar.gz from npm run backup)',
  );
  process.exit(1);
}
const pgdata = embeddedPgdata(config.dataDir);
const owner = liveOwner(pgdata);
if (owner !== null || runningServer(pgdata)) {
  console.error(
    `The embedded database in ${config.dataDir} is in use${owner ? ` (pid ${owner})` : ''}: stop the service first.`,
  );
  process.exit(1);
}
if (fs.existsSync(pgdata)) {
  if (!args.includes('--force')) {
    console.error(`${pgdata} already holds a database: pass --force to move it aside and restore over it.`);
    process.exit(1);
  }
  const aside = `${pgdata}.before-restore-${new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;
  fs.renameSync(pgdata, aside);
  console.log(`the database that was there is kept in ${aside}`);
}

fs.mkdirSync(config.dataDir, { recursive: true });
execFileSync('tar', ['-xzf', path.resolve(file), '-C', config.dataDir]);
fs.chmodSync(pgdata, 0o700);
const who = await runAs();
if (who.uid !== undefined) execFileSync('chown', ['-R', `${who.uid}:${who.gid}`, pgdata]);

// Started once: PostgreSQL replays the backup's WAL to a consistent state; then a read proves it opens.
const cluster = await startCluster({ pgdata });
try {
  const client = new pg.Client({ connectionString: cluster.url() });
  await client.connect();
  const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM pg_class WHERE relname = 'stores'`);
  await client.end();
  console.log(
    `restored into ${pgdata}${rows[0].n === '1' ? '' : ' (no stores table: is this a backup of this service?)'}; start the service with npm start`,
  );
} finally {
  await cluster.stop();
}
