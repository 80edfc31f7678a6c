// An erased customer never appears in the appointment search, whatever the needle: their relationships
// carry no search values (NULL, no tokens; db/functions/customer-search-keys.sql), so the statement needs
// no per-match check of customers.erased_at (issue 46). Erased through the operator's path (which clears
// name, email and phone; no placeholder), by a writer that only sets erased_at (the name stays on the
// customer row), and related to a store only after the erasure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { insertAppointment } from '../diary/fixtures.ts';
import { searchPeople } from '../../../src/bookings/appointment-search/appointment-search.repository.ts';

const NOW = '2026-06-15T12:00:00Z';
const t = await startTestApp({ now: NOW });
const store = await t.fx.store();
const later = await t.fx.store({ name: 'Later' });
const token = await t.fx.merchantToken(store.id);
const unit = await t.fx.unit(store.id);
const laterUnit = await t.fx.unit(later.id);

async function visit(storeId: string, unitId: string, customerId: string, day: string) {
  await t.fx.membership(storeId, customerId);
  await insertAppointment(t.db, {
    storeId,
    unitId,
    customerId,
    startsAt: `${day}T10:00:00Z`,
    endsAt: `${day}T11:00:00Z`,
    status: 'confirmed',
  } as any);
}

const live = await t.fx.customer({ name: 'Lena Live', email: 'lena@example.com' });
await visit(store.id, unit.id, live.id, '2026-06-01');
const byOperator = await t.fx.customer({ name: 'Zoe Quill', email: 'zq@example.com', phone: '+447400123456' });
await visit(store.id, unit.id, byOperator.id, '2026-06-02');
const erase = await call(t.app, 'POST', `/admin/v1/customers/${byOperator.id}/erase`, { token: ADMIN_TOKEN });
assert.equal(erase.status, 200, JSON.stringify(erase.body));
// A booking ahead too, so the search's probes for a future start would run for this one.
const byFlag = await t.fx.customer({ name: 'Erin Flag', email: 'erin.flag@example.com' });
await visit(store.id, unit.id, byFlag.id, '2026-06-03');
await visit(store.id, unit.id, byFlag.id, '2026-07-03');
await t.db.query('UPDATE customers SET erased_at = $2 WHERE id = $1', [byFlag.id, '2026-06-10T00:00:00Z']);
// Related to a store after being erased (whatever door writes the relationship).
const erasedFirst = await t.fx.customer({ name: 'Olga First', email: 'olga@example.com' });
await t.db.query('UPDATE customers SET erased_at = $2 WHERE id = $1', [erasedFirst.id, '2026-06-10T00:00:00Z']);
await visit(later.id, laterUnit.id, erasedFirst.id, '2026-06-04');
await visit(later.id, laterUnit.id, live.id, '2026-06-05');

const erasedIds = [byOperator.id, byFlag.id, erasedFirst.id];
const keys = (body: any): string[] => body.people.map((p: any) => p.key);

test("an erased customer's relationships carry no search values", async () => {
  const res = await t.db.query(
    `SELECT customer_id, search_name, search_email, search_phone, search_tokens FROM store_customers
      WHERE customer_id = ANY($1::uuid[]) ORDER BY customer_id`,
    [erasedIds],
  );
  assert.equal(res.rows.length, 3);
  for (const row of res.rows) {
    assert.deepEqual(
      { ...row, customer_id: undefined },
      { customer_id: undefined, search_name: null, search_email: null, search_phone: null, search_tokens: [] },
    );
  }
  // The writer that set only erased_at left the name on the customer row: the copies do not follow it.
  const kept = await t.db.query('SELECT name FROM customers WHERE id = $1', [byFlag.id]);
  assert.equal(kept.rows[0].name, 'Erin Flag');
});

test('no needle finds an erased customer: 2 letters, their former name or email, a common part', async () => {
  const cases: Array<[string, string, string[]]> = [
    [store.id, 'zo', []],
    [store.id, 'er', []],
    [store.id, 'qu', []],
    [store.id, 'zoe quill', []],
    [store.id, 'zq@example.com', []],
    [store.id, 'erin flag', []],
    [store.id, 'erin.flag@example.com', []],
    [store.id, '@example.com', [`c:${live.id}`]],
    [store.id, 'le', [`c:${live.id}`]],
    [later.id, 'ol', []],
    [later.id, 'olga first', []],
    [later.id, 'olga@example.com', []],
    [later.id, 'example', [`c:${live.id}`]],
  ];
  for (const [storeId, q, expected] of cases) {
    const tok = storeId === store.id ? token : await t.fx.merchantToken(storeId);
    const res = await call(t.app, 'GET', '/api/v1/bookings/appointments/search', {
      token: tok,
      query: { store_id: storeId, q },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(keys(res.body), expected, q);
    assert.equal(res.body.total, expected.length, q);
  }
});

test('a 1-letter needle is refused; the statement itself finds no erased customer for one, nor for every value', async () => {
  const res = await call(t.app, 'GET', '/api/v1/bookings/appointments/search', {
    token,
    query: { store_id: store.id, q: 'z' },
  });
  assert.equal(res.status, 400);
  assert.equal(errorCode(res), 'QUERY_TOO_SHORT');
  // Below the route: LIKE patterns with no tokens, as a 1-letter needle would be, and '%', which
  // matches any value that is not NULL.
  for (const [storeId, pattern, expected] of [
    [store.id, '%z%', []],
    [store.id, '%e%', [live.id]],
    [store.id, '%', [live.id]],
    [later.id, '%g%', []],
    [later.id, '%', [live.id]],
  ] as Array<[string, string, string[]]>) {
    const rows = await searchPeople(t.db, {
      storeId,
      pattern,
      tokens: [],
      now: new Date(NOW),
      limit: 100,
      visitLimit: 1,
    });
    assert.deepEqual([...new Set(rows.map((r) => r.customer_id))], expected, pattern);
  }
});
