// Migrates one template per run; every test file then starts from a copy of it. On the embedded
// engine this also starts the run's own PostgreSQL cluster (in a temporary directory, removed at
// the end), with durability off: a test run's data need not survive a power cut.
import fs from 'node:fs';
import path from 'node:path';
import { openPg } from '../../src/platform/db/pg.adapter.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { startCluster, type Cluster } from '../../src/platform/db/embedded/cluster.ts';
import { adminQuery, embeddedRunDir, engine, TEMPLATE_DB, urlFor } from './engine.ts';

const TEST_SETTINGS = {
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  // Two test files at once, each with its pools, sibling apps and server processes.
  max_connections: '300',
  shared_buffers: '64MB',
};

let cluster: Cluster | null = null;

export async function globalSetup() {
  // engine.ts finds the run's cluster and template by the runner's pid: this process's own, and the
  // parent of each test file (which inherit this variable).
  process.env.BBO_TEST_RUNNER_PID = String(process.pid);
  if (engine === 'embedded') {
    const dir = embeddedRunDir(process.pid);
    fs.rmSync(dir, { recursive: true, force: true });
    cluster = await startCluster({ pgdata: path.join(dir, 'postgres'), noSync: true, settings: TEST_SETTINGS });
  }
  await adminQuery(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE ${TEMPLATE_DB}`);
  const db = openPg({ connectionString: urlFor(TEMPLATE_DB), poolSize: 2 });
  await migrate(db);
  await db.close();
}

export async function globalTeardown() {
  // On a shared server the run's template goes with the run (the embedded cluster goes whole).
  if (!cluster) return adminQuery(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
  await cluster.stop();
  fs.rmSync(embeddedRunDir(process.pid), { recursive: true, force: true });
}
