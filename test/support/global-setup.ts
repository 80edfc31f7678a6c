// Migrates one template per run; every test file then starts from a copy of it.
import fs from 'node:fs';
import { openPglite } from '../../src/platform/db/pglite.adapter.ts';
import { openPg } from '../../src/platform/db/pg.adapter.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { adminQuery, engine, pgliteTemplateFile, TEMPLATE_DB, urlFor } from './engine.ts';

export async function globalSetup() {
  if (engine === 'pglite') {
    const db = await openPglite({ dataDir: null, wasmTierUp: false }); // as engine.ts opens each copy
    await migrate(db);
    const dump = await db.dump();
    fs.writeFileSync(pgliteTemplateFile(process.pid), Buffer.from(await dump.arrayBuffer()));
    await db.close();
    return;
  }
  await adminQuery(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE ${TEMPLATE_DB}`);
  const db = openPg({ connectionString: urlFor(TEMPLATE_DB), poolSize: 2 });
  await migrate(db);
  await db.close();
}

export async function globalTeardown() {
  if (engine === 'pglite') fs.rmSync(pgliteTemplateFile(process.pid), { force: true });
}
