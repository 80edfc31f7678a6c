// npm run backup [-- --to FILE]: a consistent copy of the embedded database (DATA_DIR/postgres) in
// one .tar.gz file (default backups/bbo-<UTC time>.tar.gz), taken while `npm start` runs, or with the
// database started just for it when the service is stopped. Nothing to do for a PostgreSQL server
// (DATABASE_URL): back that up with pg_basebackup or pgBackRest (docs/backups.md).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfigOrExit } from '../src/config.ts';
import { embeddedCluster, embeddedPgdata, embeddedUrl } from '../src/platform/db/embedded-postgres.adapter.ts';
import { copyRunningCluster } from './backup/copy.ts';

const config = loadConfigOrExit();
if (config.databaseUrl) {
  console.error(
    'DATABASE_URL is set: back up the PostgreSQL server with pg_basebackup or pgBackRest (docs/backups.md).',
  );
  process.exit(1);
}
const args = process.argv.slice(2);
const toArg = args.indexOf('--to') >= 0 ? args[args.indexOf('--to') + 1] : null;
const stamp = new Date()
  .toISOString()
  .replace(/[-:]/g, '')
  .replace(/\.\d+Z$/, 'Z');
const file = path.resolve(toArg ?? path.join('backups', `bbo-${stamp}.tar.gz`));
const pgdata = embeddedPgdata(config.dataDir);
if (!fs.existsSync(path.join(pgdata, 'PG_VERSION'))) {
  console.error(`No embedded database in ${config.dataDir} (DATA_DIR): nothing to back up.`);
  process.exit(1);
}

const url = await embeddedUrl(config.dataDir, { logLevel: 'warn', join: true }).catch((err: Error) => {
  console.error(`Cannot reach the database: ${err.message}`);
  process.exit(1);
});
const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'bbo-backup-'));
try {
  const { startLsn, stopLsn } = await copyRunningCluster(url, pgdata, path.join(staging, 'postgres'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync('tar', ['-czf', file, '-C', staging, 'postgres']);
  const mb = (fs.statSync(file).size / 1048576).toFixed(1);
  console.log(
    `backup written: ${path.relative(process.cwd(), file) || file} (${mb} MB, WAL ${startLsn} to ${stopLsn}); restore with npm run restore -- ${path.relative(process.cwd(), file)}`,
  );
} finally {
  fs.rmSync(staging, { recursive: true, force: true });
  await (await embeddedCluster())?.stop(); // only when this script started the database
}
