// A status change is a HOT update (migration 170, docs/performance/history/round-14.md): PostgreSQL
// rewrites a row in place, with no new index entries, only when no column an index reads changes
// and the page has room. So no index of appointments may read status or payment_status (in its
// columns, expressions or predicate), and the table keeps room on its pages (fillfactor).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openTestDatabase } from '../support/engine.ts';

const { db, close } = await openTestDatabase();
test.after(close);

test('no index of appointments reads status or payment_status, and its pages keep room for updates', async () => {
  const indexes = await db.query<{ name: string; def: string }>(
    `SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS def FROM pg_index WHERE indrelid = 'appointments'::regclass`,
  );
  assert.ok(indexes.rows.length >= 10, "the table's indexes are read");
  assert.deepEqual(
    indexes.rows.filter((i) => /\b(payment_)?status\b/.test(i.def)).map((i) => i.name),
    [],
  );
  const options = await db.query<{ options: string[] | null }>(
    `SELECT reloptions AS options FROM pg_class WHERE oid = 'appointments'::regclass`,
  );
  assert.deepEqual(options.rows[0].options, ['fillfactor=85']);
});

test('a check-in, a completion and a settle rewrite the row in place (HOT); a move does not', async () => {
  const store = (
    await db.query(`INSERT INTO stores (name, timezone, currency) VALUES ('S', 'Europe/London', 'GBP') RETURNING id`)
  ).rows[0];
  const unit = (
    await db.query(`INSERT INTO units (store_id, display_name, kind) VALUES ($1, 'U', 'staff') RETURNING id`, [
      store.id,
    ])
  ).rows[0];
  const a = (
    await db.query(
      `INSERT INTO appointments (store_id, unit_id, starts_at, ends_at, block, status, currency, price_pence)
     VALUES ($1, $2, '2026-06-01T10:00:00Z', '2026-06-01T11:00:00Z', tstzrange('2026-06-01T10:00:00Z', '2026-06-01T11:00:00Z'), 'confirmed', 'GBP', 3000)
     RETURNING id`,
      [store.id, unit.id],
    )
  ).rows[0];
  // pg_stat_xact_user_tables counts this session's updates not yet flushed, HOT ones apart: read
  // before and after the update, in one transaction (one session).
  const hot = (sql: string) =>
    db.transaction(async (tx) => {
      const count = async () =>
        (
          await tx.query<{ upd: number; hot: number }>(
            `SELECT n_tup_upd::int AS upd, n_tup_hot_upd::int AS hot FROM pg_stat_xact_user_tables WHERE relid = 'appointments'::regclass`,
          )
        ).rows[0];
      const before = await count();
      await tx.query(sql, [a.id]);
      const after = await count();
      return { upd: after.upd - before.upd, hot: after.hot - before.hot };
    });
  assert.deepEqual(
    await hot(`UPDATE appointments SET status = 'checked_in', checked_in_at = now(), updated_at = now() WHERE id = $1`),
    { upd: 1, hot: 1 },
  );
  assert.deepEqual(
    await hot(`UPDATE appointments SET status = 'completed', completed_at = now(), updated_at = now() WHERE id = $1`),
    { upd: 1, hot: 1 },
  );
  assert.deepEqual(
    await hot(
      `UPDATE appointments SET payment_status = 'paid', settled_pence = 3000, updated_at = now() WHERE id = $1`,
    ),
    { upd: 1, hot: 1 },
  );
  // A move changes what the unit's index reads: new entries, as it must.
  assert.deepEqual(
    await hot(`UPDATE appointments SET starts_at = starts_at + interval '1 hour', ends_at = ends_at + interval '1 hour',
               block = tstzrange(lower(block) + interval '1 hour', upper(block) + interval '1 hour') WHERE id = $1`),
    { upd: 1, hot: 0 },
  );
});
