// Each test file gets a fresh database: on PGlite, loaded from a migrated template dump; on the
// PostgreSQL server, a new database cloned from a migrated template database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPglite } from '../../src/platform/db/pglite.adapter.ts';
import { openPg } from '../../src/platform/db/pg.adapter.ts';
import type { Database } from '../../src/platform/db/port.ts';

export type Engine = 'pglite' | 'pg';

export const engine: Engine = process.env.TEST_ENGINE === 'pg' ? 'pg' : 'pglite';
export const TEMPLATE_DB = process.env.BBO_TEMPLATE_DB ?? 'bbo_test_template';
/**
 * The migrated template of one test run. The global setup runs in the test runner's process and
 * each test file in a child of it, so without TEST_RUN_ID the runner's pid names the run.
 */
export function pgliteTemplateFile(runnerPid: number): string {
  return path.join(os.tmpdir(), `bbo-pglite-template-${process.env.TEST_RUN_ID ?? runnerPid}.tar`);
}

export function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_ENGINE=pg needs TEST_DATABASE_URL');
  return url;
}

export function urlFor(database: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let counter = 0;

export interface TestDatabase {
  db: Database;
  /** A connection string for this database (pg engine only): for extra processes or pools. */
  url: string | null;
  close(): Promise<void>;
}

export async function openTestDatabase(): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const blob = new Blob([fs.readFileSync(pgliteTemplateFile(process.ppid))]);
    // A test file's process is short: V8's optimising recompile of PostgreSQL's WebAssembly costs more
    // than it returns (a PGlite run took 39-42 s with the baseline compiler only, 51-52 s without).
    const db = await openPglite({ dataDir: null, loadDataDir: blob, wasmTierUp: false });
    return { db, url: null, close: () => db.close() };
  }
  const name = `bbo_test_${process.pid}_${Date.now()}_${counter++}`;
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`);
  const url = urlFor(name);
  const db = openPg({ connectionString: url, poolSize: 20 });
  return {
    db,
    url,
    async close() {
      await db.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
