// The customer search's two plans (src/customers/roster/search-plan.ts): the recency walk and the
// matches read through the store's tokens return the same rows for every term, and the choice between
// them follows the column's statistics: a name common in the store walks, a rare one reads its matches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { searchCustomers } from '../../../src/customers/roster/roster.repository.ts';
import { choosePlan, planFor } from '../../../src/customers/roster/search-plan.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const store = await t.fx.store({ name: 'Plans' });
const other = await t.fx.store({ name: 'Other plans' });
const people: Array<{ id: string }> = [];
for (let i = 0; i < 60; i++) {
  // 45 Smiths among 60, one Ada, phones sharing a prefix; seen at distinct instants, some at the same.
  const name = i === 7 ? 'Ada Lovelace' : i % 4 === 3 ? `Olive Jones ${i}` : `Sam Smith ${i}`;
  const p = await t.fx.customer({ name, email: `p${i}@plans.test`, phone: `+44770090${String(i).padStart(4, '0')}` });
  people.push(p);
  await t.fx.membership(store.id, p.id);
  if (i % 5 === 0) await t.fx.membership(other.id, p.id);
  await t.db.query('UPDATE store_customers SET last_seen_at = $3 WHERE store_id = $1 AND customer_id = $2', [
    store.id,
    p.id,
    `2026-05-${String(1 + (i % 25)).padStart(2, '0')}T10:00:00Z`,
  ]);
}
await t.db.query('UPDATE store_customers SET archived = true WHERE store_id = $1 AND customer_id = $2', [
  store.id,
  people[5].id,
]);
await t.db.query('UPDATE customers SET name = NULL, email = NULL, phone = NULL, erased_at = now() WHERE id = $1', [
  people[9].id,
]);
await t.db.query('ANALYZE store_customers');

test('the walk and the matches return the same rows, in the same order, for every kind of term', async () => {
  const terms = ['smith', 'Sam Smith 1', 'ada', 'lovelace', 'olive', 'jones 3', '07700 900', '0012', 'p1', 'sm', 'zzz'];
  let found = 0;
  for (const term of terms) {
    const walk = await searchCustomers(t.db, store.id, term, 20, { kind: 'walk', cap: null });
    const matches = await searchCustomers(t.db, store.id, term, 20, { kind: 'matches' });
    assert.deepEqual(walk, matches, term);
    assert.ok(!walk.some((c) => c.id === people[5].id || c.id === people[9].id), `${term}: archived or erased`);
    found += walk.length;
  }
  assert.equal((await searchCustomers(t.db, store.id, 'smith', 20, { kind: 'walk', cap: null })).length, 20);
  assert.deepEqual(
    (await searchCustomers(t.db, store.id, 'lovelace', 20, { kind: 'matches' })).map((c) => c.id),
    [people[7].id],
  );
  // A capped walk examines the most recent `cap` relationships only: a short page, never a wrong one.
  const all = await searchCustomers(t.db, store.id, 'smith', 20, { kind: 'matches' });
  const capped = await searchCustomers(t.db, store.id, 'smith', 20, { kind: 'walk', cap: 10 });
  assert.ok(capped.length < 10, `${capped.length} rows from 10 examined`);
  assert.deepEqual(capped, all.slice(0, capped.length));
  assert.ok(found > 60, `only ${found} rows found`);
});

test("the plan follows the statistics: the store's common name walks, its rare one reads the matches", async () => {
  // 44 of the store's 60 relationships carry "smi" (44² > 20 × 60); one is an Ada (1 < 20 × 60).
  // The walk is capped at twice the crossover, ceil(2 × sqrt(20 × 60)) = 70 relationships.
  assert.deepEqual(await choosePlan(t.db, store.id, 'smith', 20), { kind: 'walk', cap: 70 });
  assert.deepEqual(await choosePlan(t.db, store.id, 'lovelace', 20), { kind: 'matches' });
  // A term with no run of 3 cannot use the index in either plan: an uncapped walk.
  assert.deepEqual(await choosePlan(t.db, store.id, 'sm', 20), { kind: 'walk', cap: null });
  // Without statistics the cost of reading the matches follows the matches: the safe choice.
  assert.deepEqual(planFor(null, store.id, 'smith', 20), { kind: 'matches' });
  const prefix = store.id.slice(0, 8);
  const f = {
    rows: 1000,
    tokens: new Map([
      [`${prefix}:smi`, 0.2],
      [`${prefix}:mit`, 0.2],
      [`${prefix}:ith`, 0.3],
      [`${prefix}:ada`, 0.01],
    ]),
    tokenFloor: 0.001,
    stores: new Map([[store.id, 0.5]]),
    storeFloor: 0.01,
  };
  assert.deepEqual(planFor(f, store.id, 'smith', 20), { kind: 'walk', cap: 200 }); // 200 > sqrt(20 × 500) = 100
  assert.deepEqual(planFor(f, store.id, 'adams', 20), { kind: 'matches' }); // "dam" is missing: at most 1 row
  assert.deepEqual(planFor(f, store.id, 'ada', 20), { kind: 'matches' }); // 10 < 100
});

test('a walk that gives up (the term rarer than its tokens) answers with the matches: the same rows', async () => {
  const token = await t.fx.merchantToken(store.id, { entitlements: [] });
  for (const q of ['smith 4', 'smith@', 'sam smith 1']) {
    assert.equal((await choosePlan(t.db, store.id, q, 20)).kind, 'walk', q);
    const res = await call(t.app, 'GET', '/api/v1/customers/search', { token, query: { store_id: store.id, q } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const expected = await searchCustomers(t.db, store.id, q, 20, { kind: 'matches' });
    assert.deepEqual(res.body.customers, expected, q);
  }
});
