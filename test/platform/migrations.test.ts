import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, readMigrations } from '../../src/platform/db/migrate.ts';
import { readFunctionFiles } from '../../src/platform/db/functions.ts';
import { adminQuery, openTestDatabase, urlFor } from '../support/engine.ts';
import { openPg } from '../../src/platform/db/pg.adapter.ts';
import { runDbProcess } from '../support/db-process.ts';

test('migrations are recorded once and a second run applies nothing', async () => {
  const { db, close } = await openTestDatabase();
  try {
    // The template is already migrated: running again is a no-op.
    assert.deepEqual(await migrate(db), { applied: [], functions: [], unowned: [] });
    assert.deepEqual(await migrate(db), { applied: [], functions: [], unowned: [] });
    const rows = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    assert.deepEqual(
      rows.rows.map((r) => r.version),
      readMigrations().map((m) => m.version),
    );
  } finally {
    await close();
  }
});

test('the occupancy constraint refuses overlapping live blocks on one unit, however the row got there', async () => {
  const { db, close } = await openTestDatabase();
  try {
    const store = (
      await db.query(`INSERT INTO stores (name, timezone, currency) VALUES ('S', 'Europe/London', 'GBP') RETURNING id`)
    ).rows[0];
    const unit = (
      await db.query(`INSERT INTO units (store_id, display_name, kind) VALUES ($1, 'U', 'staff') RETURNING id`, [
        store.id,
      ])
    ).rows[0];
    const insert = (start: string, end: string, status = 'confirmed', override = false) =>
      db.query(
        `INSERT INTO appointments (store_id, unit_id, starts_at, ends_at, block, status, currency, is_override)
         VALUES ($1, $2, $3, $4, tstzrange($3::timestamptz, $4::timestamptz), $5, 'GBP', $6)`,
        [store.id, unit.id, start, end, status, override],
      );
    // One constraint decides (migration 160): an appointment's occupancy row meets the other's.
    const refused = (err: any) => err.code === '23P01' && err.constraint === 'unit_occupancy_no_overlap';
    await insert('2026-06-01T10:00:00Z', '2026-06-01T11:00:00Z');
    await assert.rejects(insert('2026-06-01T10:30:00Z', '2026-06-01T11:30:00Z'), refused);
    await insert('2026-06-01T11:00:00Z', '2026-06-01T12:00:00Z'); // touching ends do not overlap
    await insert('2026-06-01T10:30:00Z', '2026-06-01T11:30:00Z', 'cancelled');
    await insert('2026-06-01T10:30:00Z', '2026-06-01T11:30:00Z', 'confirmed', true);
    // Rows that block nobody cannot start blocking over a live one: un-cancelling, un-overriding and
    // moving into taken time are refused by the same constraint, and nothing changes.
    const live = `status NOT IN ('cancelled', 'no_show') AND NOT is_override`;
    const before = (await db.query(`SELECT count(*)::int AS n FROM appointments WHERE ${live}`)).rows[0].n;
    await assert.rejects(db.query(`UPDATE appointments SET status = 'confirmed' WHERE status = 'cancelled'`), refused);
    await assert.rejects(db.query(`UPDATE appointments SET is_override = false WHERE is_override`), refused);
    await assert.rejects(
      db.query(`UPDATE appointments SET starts_at = starts_at - interval '30 minutes', ends_at = ends_at - interval '30 minutes',
                block = tstzrange(lower(block) - interval '30 minutes', upper(block) - interval '30 minutes')
                WHERE starts_at = '2026-06-01T11:00:00Z'`),
      refused,
    );
    assert.equal((await db.query(`SELECT count(*)::int AS n FROM appointments WHERE ${live}`)).rows[0].n, before);
    const occupancy = await db.query(`SELECT count(*)::int AS n FROM unit_occupancy WHERE appointment_id IS NOT NULL`);
    assert.equal(occupancy.rows[0].n, before, 'one occupancy row for each live appointment, no more');
  } finally {
    await close();
  }
});

test('two processes migrating an empty database at once apply each migration and function file exactly once', async () => {
  const name = `bbo_test_mig_${process.pid}_${Date.now()}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const a = openPg({ connectionString: urlFor(name), poolSize: 2 });
  try {
    type Report = { applied: string[]; functions: string[] };
    const [ra, rb] = await Promise.all([
      runDbProcess<Report>([urlFor(name), 'migrate']),
      runDbProcess<Report>([urlFor(name), 'migrate']),
    ]);
    assert.notEqual(ra.pid, rb.pid);
    const all = readMigrations().map((m) => m.name);
    assert.deepEqual([...ra.applied, ...rb.applied].sort(), [...all].sort());
    const rows = await a.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
    assert.equal(rows.rows[0].n, all.length);
    const files = readFunctionFiles().map((f) => f.file);
    assert.deepEqual([...ra.functions, ...rb.functions].sort(), [...files].sort());
    const recorded = await a.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_functions');
    assert.equal(recorded.rows[0].n, files.length);
  } finally {
    await a.close();
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
});

test('a failing migration leaves nothing half-applied', async () => {
  const { db, close } = await openTestDatabase();
  try {
    const broken = [
      { version: 9999, name: '9999_broken.sql', sql: 'CREATE TABLE half_done (id int);\nSELECT * FROM no_such_table;' },
    ];
    await assert.rejects(migrate(db, { migrations: broken }));
    const table = await db.query("SELECT to_regclass('half_done') AS t");
    assert.equal(table.rows[0].t, null);
    const recorded = await db.query('SELECT 1 FROM schema_migrations WHERE version = 9999');
    assert.equal(recorded.rowCount, 0);
  } finally {
    await close();
  }
});
