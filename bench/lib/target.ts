// One session on the target database for the generator and the EXPLAIN capture: a single pg client
// (no query timeout: a bulk INSERT at scale 10 runs for minutes) or the embedded engine under DATA_DIR.
// Exposed as the service's Database port so migrate() can run on it unchanged.
import path from 'node:path';
import pg from 'pg';
import type { Database, QueryResult, Row } from '../../src/platform/db/port.ts';
import { embeddedCluster, embeddedUrl } from '../../src/platform/db/embedded-postgres.adapter.ts';

export interface Target extends Database {
  /** Human description, e.g. "PostgreSQL 127.0.0.1:5432/bbo_bench" or "embedded PostgreSQL (data/postgres)". */
  readonly label: string;
}

export function embeddedDir(): string {
  return path.join(path.resolve(process.env.DATA_DIR ?? './data'), 'postgres');
}

export async function openTarget(databaseUrl: string | null): Promise<Target> {
  // The embedded PostgreSQL: started here (or joined, when npm start runs it) and stopped on close.
  const embedded = !databaseUrl;
  const connectionString =
    databaseUrl ||
    (await embeddedUrl(path.resolve(process.env.DATA_DIR ?? './data'), { logLevel: 'warn', join: true }));
  const client = new pg.Client({ connectionString, options: '-c TimeZone=UTC' });
  await client.connect();
  const url = new URL(connectionString);
  const wrap = (r: pg.QueryResult): QueryResult<any> => ({
    rows: r.rows as Row[],
    rowCount: r.rowCount ?? r.rows.length,
  });
  const query = async (sql: string, params?: readonly unknown[]) =>
    wrap(await client.query(sql, params as unknown[] | undefined));
  return {
    engine: 'pg',
    label: embedded ? `embedded PostgreSQL (${embeddedDir()})` : `PostgreSQL ${url.host}${url.pathname}`,
    query,
    async transaction(fn) {
      await client.query('BEGIN');
      try {
        const result = await fn({ query });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
    },
    async exec(sql) {
      await client.query(sql);
    },
    async ping() {
      await client.query('SELECT 1');
    },
    async close() {
      await client.end();
      await (await embeddedCluster())?.stop();
    },
  };
}

/** Creates the database named in the URL if it does not exist yet (connects to "postgres" to do it). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Unusual database name "${name}"`);
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
}
