// The PostgreSQL adapter's statements: parameterised data statements are prepared once per
// connection and reused, except those marked planPerCall; with prepare off nothing is prepared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPg } from '../../src/platform/db/pg.adapter.ts';
import { engine, openTestDatabase } from '../support/engine.ts';

const onServer = { skip: engine !== 'pg' };

async function preparedOnOneConnection(prepare: boolean, options?: { planPerCall: boolean }) {
  const test = await openTestDatabase();
  const db = openPg({ connectionString: test.url!, poolSize: 1, prepare });
  try {
    const sql = 'SELECT $1::int + 1 AS n';
    for (let i = 0; i < 3; i++) assert.equal((await db.query<{ n: number }>(sql, [i], options)).rows[0].n, i + 1);
    await db.transaction(async (tx) => {
      assert.equal((await tx.query<{ n: number }>(sql, [41], options)).rows[0].n, 42);
    });
    const res = await db.query<{ statement: string }>("SELECT statement FROM pg_prepared_statements WHERE statement LIKE $1 AND statement NOT LIKE '%pg_prepared%'", ['%$1::int + 1%']);
    return res.rows.length;
  } finally {
    await db.close();
    await test.close();
  }
}

test('a parameterised statement is prepared once on the connection and reused', onServer, async () => {
  assert.equal(await preparedOnOneConnection(true), 1);
});

test('a statement marked planPerCall is never prepared, so each call is planned for its values', onServer, async () => {
  assert.equal(await preparedOnOneConnection(true, { planPerCall: true }), 0);
});

test('with prepared statements off, none is left on the server', onServer, async () => {
  assert.equal(await preparedOnOneConnection(false), 0);
});
