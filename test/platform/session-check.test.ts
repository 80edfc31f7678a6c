// Behind PgBouncer the adapter's startup options never reach PostgreSQL: the processes check at start
// that the session the server gives them is in UTC (refused otherwise) and say which planner settings differ.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Database } from '../../src/platform/db/port.ts';
import { checkSessionSettings, notUtcMessage } from '../../src/platform/db/session-check.ts';
import { engine, openTestDatabase } from '../support/engine.ts';

function sessionOf(settings: Record<string, string>): Database {
  return { engine: 'pg', query: async () => ({ rows: [settings], rowCount: 1 }) } as unknown as Database;
}

test("a session in UTC with the adapter's planner settings passes with nothing to report", async () => {
  const report = await checkSessionSettings(
    sessionOf({ timezone: 'UTC', random_page_cost: '1.1', max_parallel_workers_per_gather: '0', jit: 'off' }),
  );
  assert.deepEqual(report, { ok: true, timezone: 'UTC', differences: [] });
});

test('a session in another zone is refused, even one at UTC+0 today; planner differences are listed', async () => {
  const report = await checkSessionSettings(
    sessionOf({ timezone: 'Europe/London', random_page_cost: '4', max_parallel_workers_per_gather: '2', jit: 'on' }),
  );
  assert.equal(report.ok, false);
  assert.deepEqual(report.differences, [
    'random_page_cost is 4 (wanted 1.1)',
    'max_parallel_workers_per_gather is 2 (wanted 0)',
    'jit is on (wanted off)',
  ]);
  assert.match(notUtcMessage(report.timezone), /TimeZone is Europe\/London, not UTC.*ALTER ROLE/);
  assert.equal(
    (
      await checkSessionSettings(
        sessionOf({ timezone: 'Etc/UTC', random_page_cost: '1.1', max_parallel_workers_per_gather: '0', jit: 'off' }),
      )
    ).ok,
    true,
  );
});

test("the adapter's own sessions pass the check on the engine under test", async () => {
  const t = await openTestDatabase();
  try {
    const report = await checkSessionSettings(t.db);
    assert.equal(report.ok, true);
    if (engine === 'pg') assert.deepEqual(report.differences, []);
  } finally {
    await t.close();
  }
});
