// npm run db:schema: regenerates db/schema.sql from a freshly migrated database (every numbered
// migration, then db/functions/), on an embedded PostgreSQL cluster started just for it in a
// temporary directory. Run it after adding or merging a migration; test/platform/db-schema.test.ts
// fails until the file matches.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPg } from '../src/platform/db/pg.adapter.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { startCluster } from '../src/platform/db/embedded/cluster.ts';
import { normaliseDump, pgDump, SCHEMA_FILE } from './db-schema/dump.ts';

// Not mkdtemp: its 0700 directory would shut out the system user postgres the cluster runs as.
const dir = path.join(os.tmpdir(), `bbo-schema-${process.pid}`);
const pgdata = path.join(dir, 'postgres');
const cluster = await startCluster({ pgdata, noSync: true, settings: { fsync: 'off', synchronous_commit: 'off' } });
try {
  const url = cluster.url();
  const db = openPg({ connectionString: url, poolSize: 2 });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  fs.writeFileSync(SCHEMA_FILE, normaliseDump(pgDump(url)));
  console.log(`${SCHEMA_FILE} written`);
} finally {
  await cluster.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
