// The per-store search keys of store_customers (migration 280, db/functions/customer-search-keys.sql)
// are a copy of each customer's lower(name), email and phone. A copy can drift; these tests recompute
// it from customers after every kind of write that changes it, sequential and concurrent, and require
// no difference, then show a search finding the customer by the new value and not by the old one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { searchTokens } from '../../../src/customers/roster/text-filter.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });

/** Relationships whose keys differ from their customer's values now: must always be none. */
async function drift(): Promise<Array<{ store_id: string; customer_id: string }>> {
  const res = await t.db.query<{ store_id: string; customer_id: string }>(
    `SELECT sc.store_id, sc.customer_id FROM store_customers sc JOIN customers c ON c.id = sc.customer_id
      WHERE (sc.search_name, sc.search_email, sc.search_phone) IS DISTINCT FROM (lower(c.name), c.email, c.phone)`,
  );
  return res.rows;
}

async function searchIds(storeId: string, q: string): Promise<string[]> {
  const token = await t.fx.merchantToken(storeId, { entitlements: [] });
  const res = await call(t.app, 'GET', '/api/v1/customers/search', { token, query: { store_id: storeId, q } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.customers.map((c: { id: string }) => c.id);
}

test("a relationship takes its customer's values, and every change to the customer reaches all its relationships", async () => {
  const [a, b] = [await t.fx.store(), await t.fx.store({ name: 'Second' })];
  const ada = await t.fx.customer({ name: 'Ada Lovelace', email: 'ada@analytical.org', phone: '+447812345678' });
  await t.fx.membership(a.id, ada.id);
  await t.fx.membership(b.id, ada.id);
  assert.deepEqual(await drift(), []);
  assert.deepEqual(await searchIds(a.id, 'lovelace'), [ada.id]);

  await t.db.query(
    "UPDATE customers SET name = 'Ada King', email = 'ada@king.example', phone = '+447400123456' WHERE id = $1",
    [ada.id],
  );
  assert.deepEqual(await drift(), []);
  for (const store of [a, b]) {
    assert.deepEqual(await searchIds(store.id, 'king'), [ada.id]);
    assert.deepEqual(await searchIds(store.id, 'lovelace'), []);
    assert.deepEqual(await searchIds(store.id, '07400 123456'), [ada.id]);
  }
  // Erasure clears the values; the relationship keeps nothing to match.
  await t.db.query('UPDATE customers SET name = NULL, email = NULL, phone = NULL, erased_at = now() WHERE id = $1', [
    ada.id,
  ]);
  assert.deepEqual(await drift(), []);
  assert.deepEqual(await searchIds(a.id, 'king'), []);
});

test('concurrent name changes and new relationships of the same customers leave no drift', async () => {
  const stores: Array<{ id: string }> = [];
  for (let i = 0; i < 3; i++) stores.push(await t.fx.store({ name: `Race ${i}` }));
  const people: Array<{ id: string }> = [];
  for (let i = 0; i < 8; i++) people.push(await t.fx.customer({ name: `Racer ${i}`, email: `racer${i}@example.com` }));
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const rename = (id: string, name: string, holdMs: number) =>
    t.db.transaction(async (tx) => {
      await tx.query('UPDATE customers SET name = $2 WHERE id = $1', [id, name]);
      await tx.query('SELECT pg_sleep($1)', [holdMs / 1000]);
    });
  const relate = (storeId: string, id: string, holdMs: number) =>
    t.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO store_customers (store_id, customer_id, first_seen_at, last_seen_at, updated_at)
       VALUES ($1, $2, now(), now(), now()) ON CONFLICT DO NOTHING`,
        [storeId, id],
      );
      await tx.query('SELECT pg_sleep($1)', [holdMs / 1000]);
    });
  // Both orders, each transaction still open when the other writes: a rename that commits after a
  // relationship read the old name, and a relationship that commits after a rename looked for rows.
  const writes: Promise<unknown>[] = [];
  for (const [i, person] of people.entries()) {
    if (i % 2 === 0) {
      writes.push(rename(person.id, `Renamed ${i}`, 150));
      writes.push(pause(40).then(() => Promise.all(stores.map((s) => relate(s.id, person.id, 0)))));
    } else {
      writes.push(Promise.all(stores.map((s) => relate(s.id, person.id, 150))));
      writes.push(pause(40).then(() => rename(person.id, `Renamed ${i}`, 0)));
    }
  }
  await Promise.all(writes);
  const n = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM store_customers WHERE customer_id = ANY($1)',
    [people.map((p) => p.id)],
  );
  assert.equal(n.rows[0].n, people.length * stores.length);
  assert.deepEqual(await drift(), []);
});

test("a needle's tokens are among the tokens of every value containing it, so the index never hides a match", async () => {
  const store = '0a1b2c3d-0000-4000-8000-000000000000';
  const values = [
    'olivia smith',
    "o'brien-smythe",
    'josé álvarez',
    'ada@analytical.org',
    '+447812345678',
    'mary-jane 2nd',
  ];
  let checked = 0;
  for (const value of values) {
    const res = await t.db.query<{ tokens: string[] }>('SELECT bbo_search_tokens($1, ARRAY[$2]) AS tokens', [
      store,
      value,
    ]);
    const indexed = new Set(res.rows[0].tokens);
    for (let i = 0; i < value.length; i++) {
      for (let j = i + 1; j <= value.length; j++) {
        for (const token of searchTokens(store, value.slice(i, j))) {
          assert.ok(indexed.has(token), `${token} of "${value.slice(i, j)}" is not among the tokens of "${value}"`);
          checked++;
        }
      }
    }
  }
  assert.ok(checked > 500, `only ${checked} tokens checked`);
  assert.deepEqual(searchTokens(store, 'sm'), []);
  assert.deepEqual(searchTokens(store, 'Smith'), ['0a1b2c3d:smi', '0a1b2c3d:mit', '0a1b2c3d:ith']);
});
