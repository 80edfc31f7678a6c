// Databases the proofs own: each is created fresh (bbo_rel_*), migrated with the service's own
// migrations, and dropped at the end. A direct pg pool is kept for seeding and for the checks
// that look at the database after the fact.
import pg from 'pg';
import { openPg } from '../src/platform/db/pg.adapter.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import type { Database } from '../src/platform/db/port.ts';
import { PREPARED_STATEMENTS } from './env.ts';

let counter = 0;

export function urlFor(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  client.on('error', () => {}); // a cut session fails the query; unheard, its 'error' event would end the process
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface OwnedDatabase {
  name: string;
  url: string;
  /** The service's database port over a small pool: seeding and after-the-fact checks. */
  db: Database & { pool: pg.Pool };
  drop(): Promise<void>;
}

const live = new Set<OwnedDatabase>();

/** Creates and migrates a fresh database for one proof. */
export async function createDatabase(serverUrl: string, label: string): Promise<OwnedDatabase> {
  const name = `bbo_rel_${label}_${process.pid}_${counter++}`;
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = urlFor(serverUrl, name);
  const db = openPg({ connectionString: url, poolSize: 6, prepare: PREPARED_STATEMENTS });
  await migrate(db);
  const owned: OwnedDatabase = {
    name,
    url,
    db,
    async drop() {
      live.delete(owned);
      await db.close().catch(() => {});
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
  live.add(owned);
  return owned;
}

/** Drops whatever a failed or interrupted proof left behind. */
export async function dropAll(): Promise<void> {
  for (const d of [...live]) await d.drop().catch(() => {});
}

/** Databases left by an earlier run that was killed (same prefix, any pid). */
export async function dropStale(serverUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  client.on('error', () => {}); // a cut session fails the query; unheard, its 'error' event would end the process
  await client.connect();
  try {
    const res = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'bbo\\_rel\\_%'",
    );
    for (const { datname } of res.rows) {
      const pid = Number(datname.split('_').at(-2));
      if (Number.isInteger(pid) && pid !== process.pid && !isAlive(pid)) {
        await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => {});
      }
    }
  } finally {
    await client.end();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
