// Each test file gets a fresh database, cloned (CREATE DATABASE ... TEMPLATE) from a template the
// global setup migrated once per run. The embedded engine (the default) is real PostgreSQL 15 from
// npm, one cluster per test run, started by the global setup in a temporary directory and reached
// over its Unix socket; TEST_ENGINE=pg uses the PostgreSQL server at TEST_DATABASE_URL instead.
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPg } from '../../src/platform/db/pg.adapter.ts';
import { socketUrl } from '../../src/platform/db/embedded/socket.ts';
import type { Database } from '../../src/platform/db/port.ts';

export type Engine = 'embedded' | 'pg';

export const engine: Engine = process.env.TEST_ENGINE === 'pg' ? 'pg' : 'embedded';
/**
 * The run's template database. Named by the run, so two runs on one PostgreSQL server (two checkouts,
 * or CI beside a developer's run) never drop or migrate each other's template mid-run.
 */
export const TEMPLATE_DB =
  process.env.BBO_TEMPLATE_DB ??
  `bbo_test_template_${(process.env.TEST_RUN_ID ?? process.env.BBO_TEST_RUNNER_PID ?? String(process.pid)).replace(/[^A-Za-z0-9]/g, '_')}`;

/**
 * The embedded cluster of one test run. The global setup runs in the test runner's process and
 * each test file in a child of it, so without TEST_RUN_ID the runner's pid names the run.
 */
export function embeddedRunDir(runnerPid: number): string {
  return path.join(os.tmpdir(), `bbo-test-pg-${process.env.TEST_RUN_ID ?? runnerPid}`);
}

export function serverUrl(): string {
  // The data directory's path is short, so the socket is in it (src/platform/db/embedded/socket.ts).
  const runner = Number(process.env.BBO_TEST_RUNNER_PID ?? process.ppid);
  if (engine === 'embedded') return socketUrl(path.join(embeddedRunDir(runner), 'postgres'));
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
  /** A connection string for this database: for extra processes or pools. */
  url: string;
  close(): Promise<void>;
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const name = `bbo_test_${process.pid}_${Date.now()}_${counter++}`;
  // On the run's own cluster (fsync off) copying the files is about half the time of WAL-logging
  // every page (58 against 121-148 ms); on a shared server its checkpoints would cost others.
  await adminQuery(
    `CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}${engine === 'embedded' ? ' STRATEGY FILE_COPY' : ''}`,
  );
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
