// npm run backup / npm run restore on the embedded PostgreSQL: a copy taken while the database runs
// (and goes on being written) restores into a fresh DATA_DIR with every row committed before it, and
// none after; a copy of a stopped database is taken too; restore refuses to overwrite silently.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startCluster } from '../../src/platform/db/embedded/cluster.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bbo-backup-test-'));
fs.chmodSync(root, 0o755); // run as root, the server's own user (postgres) must be able to enter it
after(() => fs.rmSync(root, { recursive: true, force: true }));

function npmScript(script: string, dataDir: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [`scripts/${script}.ts`, ...args],
      { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' } },
      (err, stdout, stderr) => resolve({ code: err ? ((err as any).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

test('a backup of the running database restores into a fresh DATA_DIR with the rows committed before it and none after', async () => {
  const source = path.join(root, 'source');
  const cluster = await startCluster({ pgdata: path.join(source, 'postgres') });
  const file = path.join(root, 'running.tar.gz');
  try {
    await sql(
      cluster.url(),
      `CREATE TABLE stores (id int PRIMARY KEY, name text NOT NULL); INSERT INTO stores SELECT g, 'store ' || g FROM generate_series(1, 1000) g`,
    );
    const backup = await npmScript('backup', source, ['--to', file]);
    assert.equal(backup.code, 0, backup.out);
    assert.match(backup.out, /backup written/);
    await sql(cluster.url(), `INSERT INTO stores VALUES (1001, 'after the backup')`);
  } finally {
    await cluster.stop();
  }

  const fresh = path.join(root, 'fresh');
  const restore = await npmScript('restore', fresh, [file]);
  assert.equal(restore.code, 0, restore.out);
  const restored = await startCluster({ pgdata: path.join(fresh, 'postgres') });
  try {
    const rows = await sql<{ n: number; last: string; after: number }>(
      restored.url(),
      `SELECT count(*)::int AS n, max(name) FILTER (WHERE id = 1000) AS last, count(*) FILTER (WHERE id = 1001)::int AS after FROM stores`,
    );
    assert.deepEqual(rows[0], { n: 1000, last: 'store 1000', after: 0 });
  } finally {
    await restored.stop();
  }

  // Restoring over a database needs --force, and keeps the old one aside.
  const again = await npmScript('restore', fresh, [file]);
  assert.notEqual(again.code, 0);
  assert.match(again.out, /--force/);
  const forced = await npmScript('restore', fresh, [file, '--force']);
  assert.equal(forced.code, 0, forced.out);
  assert.equal(fs.readdirSync(fresh).filter((n) => n.startsWith('postgres.before-restore-')).length, 1);
});

test('a backup of a stopped database starts it for the copy and stops it again; restore refuses while a server runs', async () => {
  const source = path.join(root, 'stopped');
  const cluster = await startCluster({ pgdata: path.join(source, 'postgres') });
  await sql(cluster.url(), `CREATE TABLE units (id int); INSERT INTO units VALUES (7)`);
  await cluster.stop();

  const file = path.join(root, 'stopped.tar.gz');
  const backup = await npmScript('backup', source, ['--to', file]);
  assert.equal(backup.code, 0, backup.out);
  assert.equal(
    fs.existsSync(path.join(source, 'postgres', 'postmaster.pid')),
    false,
    'the database the backup started is stopped again',
  );

  const running = await startCluster({ pgdata: path.join(source, 'postgres') });
  try {
    const refused = await npmScript('restore', source, [file, '--force']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.out, /in use/);
    assert.deepEqual(
      await sql(running.url(), 'SELECT id FROM units'),
      [{ id: 7 }],
      'the running database is untouched',
    );
  } finally {
    await running.stop();
  }
});
