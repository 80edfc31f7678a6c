// The PostgreSQL adapter's statements: parameterised data statements are prepared once per
// connection and reused, except those marked planPerCall; with prepare off nothing is prepared. A
// refusal keeps its connection; a lost or hung one (past the read timeout) is replaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPg } from '../../src/platform/db/pg.adapter.ts';
import { isUnavailable } from '../../src/platform/db/pg-errors.ts';
import { openTestDatabase } from '../support/engine.ts';

async function preparedOnOneConnection(prepare: boolean, options?: { planPerCall: boolean }) {
  const test = await openTestDatabase();
  const db = openPg({ connectionString: test.url!, poolSize: 1, prepare });
  try {
    const sql = 'SELECT $1::int + 1 AS n';
    for (let i = 0; i < 3; i++) assert.equal((await db.query<{ n: number }>(sql, [i], options)).rows[0].n, i + 1);
    await db.transaction(async (tx) => {
      assert.equal((await tx.query<{ n: number }>(sql, [41], options)).rows[0].n, 42);
    });
    const res = await db.query<{ statement: string }>(
      "SELECT statement FROM pg_prepared_statements WHERE statement LIKE $1 AND statement NOT LIKE '%pg_prepared%'",
      ['%$1::int + 1%'],
    );
    return res.rows.length;
  } finally {
    await db.close();
    await test.close();
  }
}

test('a parameterised statement is prepared once on the connection and reused', async () => {
  assert.equal(await preparedOnOneConnection(true), 1);
});

test('a statement marked planPerCall is never prepared, so each call is planned for its values', async () => {
  assert.equal(await preparedOnOneConnection(true, { planPerCall: true }), 0);
});

test('with prepared statements off, none is left on the server', async () => {
  assert.equal(await preparedOnOneConnection(false), 0);
});

test('a statement the database refuses leaves its connection in the pool; a lost connection is replaced', async () => {
  const test = await openTestDatabase();
  const db = openPg({ connectionString: test.url!, poolSize: 1 });
  const pid = async () => (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid', [])).rows[0].pid;
  try {
    const first = await pid();
    // A refusal raised the way the write functions raise theirs, a constraint-style error, and a
    // division by zero: each is an answer, not a broken connection.
    await assert.rejects(db.query("SELECT bbo_refuse('NOT_FOUND', 'Store not found')", []), { code: 'BB001' });
    await assert.rejects(db.query('SELECT 1 / $1::int AS n', [0]), { code: '22012' });
    assert.equal(await pid(), first, 'the same session answers after the refusals');
    assert.equal((await db.query<{ n: number }>('SELECT $1::int + 1 AS n', [1])).rows[0].n, 2);

    // The server ends the session while a statement runs on it: that statement fails as unavailable,
    // and the next one runs on a new session. (The statement is known to be running before the kill,
    // so the failure is certain; an idle session's end may be noticed by the pool before any use.)
    const killer = openPg({ connectionString: test.url!, poolSize: 1 });
    try {
      const running = db.query('SELECT pg_sleep($1::int)', [30]);
      running.catch(() => undefined);
      for (let i = 0; ; i++) {
        const active = await killer.query(
          "SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND query LIKE 'SELECT pg_sleep%'",
          [first],
        );
        if (active.rowCount === 1) break;
        assert.ok(i < 500, 'the statement started on the session');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(
        (await killer.query<{ ok: boolean }>('SELECT pg_terminate_backend($1::int) AS ok', [first])).rows[0].ok,
        true,
      );
      await assert.rejects(
        running,
        (err: Error) => isUnavailable(err),
        'the statement on the ended session fails as unavailable',
      );
    } finally {
      await killer.close();
    }
    const next = await pid();
    assert.notEqual(next, first);
  } finally {
    await db.close();
    await test.close();
  }
});

test('a statement that outlives the read timeout fails as unavailable, and its connection is replaced', async () => {
  const test = await openTestDatabase();
  const db = openPg({ connectionString: test.url!, poolSize: 1, queryTimeoutMs: 300 });
  const pid = async () => (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid', [])).rows[0].pid;
  try {
    const first = await pid();
    // The outcome, not the time: a statement that ran to its end would have answered; only the
    // adapter's read timeout rejects it with this message.
    await assert.rejects(
      db.query('SELECT pg_sleep($1::int)', [5]),
      (err: Error) => isUnavailable(err) && /Query read timeout/.test(err.message),
    );
    // Inside a transaction too, and the pool's one connection is replaced both times.
    await assert.rejects(
      db.transaction((tx) => tx.query('SELECT pg_sleep($1::int)', [5])),
      (err: Error) => isUnavailable(err),
    );
    await assert.rejects(
      db.ping().then(() => db.exec('SELECT pg_sleep(5)')),
      (err: Error) => isUnavailable(err),
    );
    const next = await pid();
    assert.notEqual(next, first);
    assert.equal((await db.query<{ n: number }>('SELECT $1::int + 1 AS n', [1])).rows[0].n, 2);
    // A statement given its own read timeout (a migration's: migrate.ts) outlives the pool's, in a
    // transaction as a migration runs, and keeps its connection.
    const before = await pid();
    const slow = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_sleep(0.6)', undefined, { readTimeoutMs: 60_000 });
      return tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    });
    assert.equal(slow.rows[0].pid, before);
  } finally {
    await db.close();
    await test.close();
  }
});
