// Races on the server engine: concurrent creates with one client_token, and concurrent updates of
// the two party bounds (the row lock makes the second see the first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';

const t = await startTestApp();
const URL = '/api/v1/bookings/services';

async function setup() {
  const store = await t.fx.store();
  const token = await t.fx.merchantToken(store.id);
  const create = (body: Record<string, unknown>) =>
    call(t.app, 'POST', URL, { token, body: { store_id: store.id, ...body } });
  return { store, token, create };
}

async function serviceRow(id: string) {
  return (await t.db.query('SELECT * FROM services WHERE id = $1', [id])).rows[0];
}

test('concurrent creates with one client_token make one service and all return it', async () => {
  const { store, token } = await setup();
  const other = await t.sibling();
  const body = {
    store_id: store.id,
    client_token: 'race',
    name: 'Massage',
    duration_min: 60,
    variants: [{ name: 'Long' }],
  };
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) => call(i % 2 ? other : t.app, 'POST', URL, { token, body })),
  );
  for (const r of results) assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(new Set(results.map((r) => r.body.service.id)).size, 1);
  for (const r of results) assert.equal(r.body.service.variants.length, 1);
  const counts = await t.db.query(
    `SELECT (SELECT count(*)::int FROM services WHERE store_id = $1) AS s, (SELECT count(*)::int FROM service_variants WHERE store_id = $1) AS v`,
    [store.id],
  );
  assert.deepEqual(counts.rows[0], { s: 1, v: 1 });
});

test('concurrent updates of party_min and party_max cannot together break party_min <= party_max', async () => {
  const { store, token, create } = await setup();
  const other = await t.sibling();
  for (let round = 0; round < 5; round++) {
    const s = (await create({ name: `Table ${round}`, duration_min: 90, party_min: 2, party_max: 6 })).body.service;
    const url = `${URL}/${s.id}`;
    // Each change is valid against the stored row alone; together they would leave min 5 > max 3.
    const [a, b] = await Promise.all([
      call(t.app, 'PATCH', url, { token, body: { store_id: store.id, party_min: 5 } }),
      call(other, 'PATCH', url, { token, body: { store_id: store.id, party_max: 3 } }),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [200, 400], JSON.stringify([a.body, b.body]));
    const loser = a.status === 400 ? a : b;
    assert.equal(errorCode(loser), 'VALIDATION_FAILED');
    const row = await serviceRow(s.id);
    assert.ok(row.party_min <= row.party_max);
    assert.ok((row.party_min === 5 && row.party_max === 6) || (row.party_min === 2 && row.party_max === 3));
  }
});
