// A bench that needs a database of its own: created fresh on the server of serverUrl, handed to fn by
// its URL, and dropped afterwards whatever happens.
import pg from 'pg';

async function admin(serverUrl: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export async function withScratchDatabase<T>(
  serverUrl: string,
  name: string,
  fn: (databaseUrl: string) => Promise<T>,
): Promise<T> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  try {
    return await fn(u.toString());
  } finally {
    await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}
