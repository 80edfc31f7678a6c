import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, readMigrations } from '../../src/platform/db/migrate.ts';
import { openTestDatabase } from '../support/engine.ts';

test('migrations are recorded once and a second run applies nothing', async () => {
  const { db, close } = await openTestDatabase();
  try {
    // The template is already migrated: running again is a no-op.
    assert.deepEqual(await migrate(db), []);
    assert.deepEqual(await migrate(db), []);
    const rows = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    assert.deepEqual(rows.rows.map((r) => r.version), readMigrations().map((m) => m.version));
  } finally {
    await close();
  }
});

test('the exclusion constraint refuses overlapping live blocks on one unit', async () => {
  const { db, close } = await openTestDatabase();
  try {
    const store = (await db.query(`INSERT INTO stores (name, timezone, currency) VALUES ('S', 'Europe/London', 'GBP') RETURNING id`)).rows[0];
    const unit = (await db.query(`INSERT INTO units (store_id, display_name, kind) VALUES ($1, 'U', 'staff') RETURNING id`, [store.id])).rows[0];
    const insert = (start: string, end: string, status = 'confirmed', override = false) =>
      db.query(
        `INSERT INTO appointments (store_id, unit_id, starts_at, ends_at, block, status, currency, is_override)
         VALUES ($1, $2, $3, $4, tstzrange($3::timestamptz, $4::timestamptz), $5, 'GBP', $6)`,
        [store.id, unit.id, start, end, status, override],
      );
    await insert('2026-06-01T10:00:00Z', '2026-06-01T11:00:00Z');
    await assert.rejects(insert('2026-06-01T10:30:00Z', '2026-06-01T11:30:00Z'), (err: any) => err.code === '23P01');
    await insert('2026-06-01T11:00:00Z', '2026-06-01T12:00:00Z'); // touching ends do not overlap
    await insert('2026-06-01T10:30:00Z', '2026-06-01T11:30:00Z', 'cancelled');
    await insert('2026-06-01T10:30:00Z', '2026-06-01T11:30:00Z', 'confirmed', true);
  } finally {
    await close();
  }
});
