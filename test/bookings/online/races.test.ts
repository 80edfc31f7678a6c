// Races for one slot through the online checkout, on both engines (both are real PostgreSQL).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorCode, type CallResult } from '../../support/http.ts';
import { startTestApp } from '../../support/app.ts';
import { confirm, count, hold, shop, type Shop } from './helpers.ts';

const t = await startTestApp({ now: '2026-06-01T08:00:00Z' });
const NINE = '2026-06-02T08:00:00.000Z';

async function customers(w: Shop, n: number): Promise<string[]> {
  const ids = await w.t.db.query<{ id: string }>(
    `INSERT INTO customers (name) SELECT 'Racer ' || g FROM generate_series(1, $1) g RETURNING id`,
    [n],
  );
  return Promise.all(ids.rows.map((r) => w.t.fx.customerToken(r.id, ['customer:read', 'customer:write'])));
}

/**
 * The answers, counted. A 503 SERVICE_UNAVAILABLE is the service's designed answer when a request
 * waits longer than the pool allows (a crowded CI machine, 50 requests queued on one unit's lock):
 * it changes nothing and says to retry, so it is counted apart, not as a server error.
 */
function tally(results: CallResult[]) {
  const codes = results.map((r) => (r.status === 200 ? 'ok' : errorCode(r)));
  const overloaded = results.filter((r) => r.status === 503 && errorCode(r) === 'SERVICE_UNAVAILABLE').length;
  const counts = [...new Set(codes)].map((c) => `${c} x${codes.filter((x) => x === c).length}`).join(', ');
  return {
    ok: codes.filter((c) => c === 'ok').length,
    serverErrors: results.filter((r) => r.status >= 500).length - overloaded,
    codes: counts,
  };
}

/** Live holds and live appointments on one unit that overlap each other (the invariant: none), listed. */
async function overlaps(w: Shop): Promise<string[]> {
  const res = await w.t.db.query<{ pair: string }>(
    `
    WITH occ AS (
      SELECT 'hold ' || id AS what, unit_id, block FROM holds WHERE store_id = $1 AND released_at IS NULL
      UNION ALL SELECT 'appointment ' || id || ' ' || status, unit_id, block FROM appointments
       WHERE store_id = $1 AND status NOT IN ('cancelled', 'no_show') AND NOT is_override)
    SELECT a.what || ' ' || a.block::text || ' / ' || b.what || ' ' || b.block::text AS pair
      FROM occ a JOIN occ b ON a.unit_id = b.unit_id AND a.block && b.block AND a.what < b.what`,
    [w.storeId],
  );
  return res.rows.map((r) => r.pair);
}

// Two apps, each with its own connection pool, on one database: two server processes' view of it,
// in this process. (A real second process runs on the system clock, and the online slot rules
// depend on now; the appointments race in test/bookings/appointments/races.test.ts and the
// race-storm proof use real processes.)
test('50 customers race for one slot ("any unit", two apps with their own pools): exactly one hold', async () => {
  const w = await shop({ t });
  const second = await t.sibling();
  const tokens = await customers(w, 50);
  const results = await Promise.all(tokens.map((tok, i) => hold(w, { starts_at: NINE }, tok, i % 2 ? second : t.app)));
  const r = tally(results);
  assert.deepEqual({ ok: r.ok, serverErrors: r.serverErrors }, { ok: 1, serverErrors: 0 }, r.codes);
  assert.ok(
    results.every((x) => x.status === 200 || ['SLOT_UNAVAILABLE', 'SERVICE_UNAVAILABLE'].includes(errorCode(x))),
    r.codes,
  );
  assert.equal(
    await count(t, 'SELECT count(*) AS n FROM holds WHERE store_id = $1 AND released_at IS NULL', [w.storeId]),
    1,
  );
  assert.deepEqual(await overlaps(w), []);
});

test('100 customers hold-and-confirm one slot at once: exactly one appointment', async () => {
  const w = await shop({ t, units: 1 });
  const tokens = await customers(w, 100);
  const results = await Promise.all(
    tokens.map(async (tok) => {
      const h = await hold(w, { starts_at: NINE }, tok);
      return h.status === 200 ? confirm(w, h.body.hold.id, tok) : h;
    }),
  );
  const r = tally(results);
  assert.deepEqual({ ok: r.ok, serverErrors: r.serverErrors }, { ok: 1, serverErrors: 0 }, r.codes);
  assert.equal(
    await count(t, `SELECT count(*) AS n FROM appointments WHERE store_id = $1 AND source = 'online'`, [w.storeId]),
    1,
  );
  assert.deepEqual(await overlaps(w), []);
});

test('one hold confirmed 100 times at once: one appointment, one first answer, 99 reused', async () => {
  const w = await shop({ t });
  const h = await hold(w, { starts_at: NINE });
  const results = await Promise.all(Array.from({ length: 100 }, () => confirm(w, h.body.hold.id)));
  assert.equal(tally(results).ok, 100, tally(results).codes);
  assert.deepEqual(
    [results.filter((r) => r.body.reused === false).length, new Set(results.map((r) => r.body.appointment.id)).size],
    [1, 1],
  );
  assert.equal(await count(t, 'SELECT count(*) AS n FROM appointments WHERE store_id = $1', [w.storeId]), 1);
});

test('customers holding and staff booking the same time at once never overlap', async () => {
  const w = await shop({ t });
  const tokens = await customers(w, 30);
  const results = await Promise.all([
    ...tokens.map((tok) => hold(w, { starts_at: NINE }, tok)),
    ...Array.from({ length: 30 }, (_, i) =>
      w.t.app
        .inject({
          method: 'POST',
          url: '/api/v1/bookings/appointments',
          headers: { authorization: `Bearer ${w.merchant}` },
          payload: {
            store_id: w.storeId,
            unit_id: w.units[0],
            starts_at: new Date(Date.parse(NINE) - 30 * 60_000 + i * 120_000).toISOString(),
            ends_at: new Date(Date.parse(NINE) + i * 120_000).toISOString(),
            guest_email: 'g@example.com',
          },
        })
        .then((res) => ({ status: res.statusCode, body: res.json(), headers: res.headers }) as CallResult),
    ),
  ]);
  assert.equal(tally(results).serverErrors, 0, tally(results).codes);
  assert.ok(tally(results).ok >= 1);
  assert.deepEqual(await overlaps(w), []);
});
