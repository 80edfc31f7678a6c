// An import is one transaction of many batches (issue 45): what that must not cost, and what it must
// still record. The availability cache must see every imported block (one row per store and
// transaction, as for every writer), and a change the transaction's row already covers writes no new
// row version (bbo_note_availability_change), so the row does not grow a version per imported row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call } from '../support/http.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const { app, db, fx } = t;

const store = await fx.store({ name: 'Big Move', timezone: 'Europe/London' });
const token = await fx.merchantToken(store.id);
const units = [await fx.unit(store.id, { display_name: 'Ana' }), await fx.unit(store.id, { display_name: 'Ben' })];

test('a change the transaction already noted writes no new row version; one it did not widens the row', async () => {
  await db
    .transaction(async (tx) => {
      await tx.query(
        `SELECT bbo_note_availability_change($1, tstzmultirange(tstzrange('2026-07-01T09:00Z', '2026-07-01T17:00Z')))`,
        [store.id],
      );
      const version = async () =>
        (
          await tx.query<{ v: string; blocks: string }>(
            'SELECT ctid::text AS v, blocks::text AS blocks FROM availability_changes WHERE store_id = $1 AND txid = pg_current_xact_id()',
            [store.id],
          )
        ).rows;
      const before = await version();
      assert.equal(before.length, 1);
      await tx.query(
        `SELECT bbo_note_availability_change($1, tstzmultirange(tstzrange('2026-07-01T10:00Z', '2026-07-01T10:30Z')))`,
        [store.id],
      );
      assert.deepEqual(await version(), before, 'covered: the same row version');
      await tx.query(
        `SELECT bbo_note_availability_change($1, tstzmultirange(tstzrange('2026-07-02T10:00Z', '2026-07-02T10:30Z')))`,
        [store.id],
      );
      const widened = await version();
      assert.notEqual(widened[0].v, before[0].v);
      assert.equal(
        widened[0].blocks,
        '{["2026-07-01 09:00:00+00","2026-07-01 17:00:00+00"),["2026-07-02 10:00:00+00","2026-07-02 10:30:00+00")}',
      );
      // A change of the set-up (NULL: every day) still makes the row "everything".
      await tx.query('SELECT bbo_note_availability_change($1, NULL)', [store.id]);
      assert.equal((await version())[0].blocks, null);
      throw new Error('rollback');
    })
    .catch((err: Error) => {
      if (err.message !== 'rollback') throw err;
    });
});

test("an import of several batches records every imported block as its one transaction's change", async () => {
  // 450 rows: three batches of 200, 200 and 50, on two units, 09:00-17:00 on weekdays of July.
  const rows = ['external_id,unit,start,minutes,name'];
  const days = [
    '2026-07-01',
    '2026-07-02',
    '2026-07-03',
    '2026-07-06',
    '2026-07-07',
    '2026-07-08',
    '2026-07-09',
    '2026-07-10',
    '2026-07-13',
    '2026-07-14',
    '2026-07-15',
    '2026-07-16',
    '2026-07-17',
    '2026-07-20',
    '2026-07-21',
  ];
  for (const day of days) {
    for (const u of units) {
      for (let slot = 0; slot < 16 && rows.length <= 450; slot++) {
        const hh = String(9 + Math.floor(slot / 2)).padStart(2, '0');
        rows.push(`X${rows.length},${u.display_name},${day} ${hh}:${slot % 2 ? '30' : '00'},30,Guest ${rows.length}`);
      }
    }
  }
  assert.equal(rows.length, 451);
  const res = await call(app, 'POST', '/api/v1/imports/appointments', {
    token,
    body: rows.join('\n'),
    query: { store_id: store.id },
    headers: { 'content-type': 'text/csv' },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.created, 450, JSON.stringify(res.body.errors?.slice(0, 3)));
  // One transaction's row covers every imported appointment's block: what the availability cache reads.
  const covering = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM availability_changes c
      WHERE c.store_id = $1 AND c.blocks @> (SELECT range_agg(a.block) FROM appointments a WHERE a.store_id = $1)`,
    [store.id],
  );
  assert.equal(covering.rows[0].n, 1);
});
