import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { insertAppointment } from '../diary/fixtures.ts';

const NOW = '2026-06-15T12:00:00Z';
const t = await startTestApp({ now: NOW });
const store = await t.fx.store({ timezone: 'Europe/London' });
const other = await t.fx.store({ name: 'Other' });
const token = await t.fx.merchantToken(store.id);
const chairA = await t.fx.unit(store.id, { display_name: 'Chair A' });
const chairB = await t.fx.unit(store.id, { display_name: 'Chair B' });

const search = (query: Record<string, string | number | undefined>, tok = token) =>
  call(t.app, 'GET', '/api/v1/bookings/appointments/search', { token: tok, query: { store_id: store.id, ...query } });

// Inserts a one-hour appointment starting at `day`T10:00Z. An account's booking comes with its
// relationship to the store, as every door that books writes one (bbo_touch_store_customer).
let unitToggle = 0;
async function visit(day: string, fields: Record<string, unknown>) {
  const unitId = (fields.unitId as string) ?? (unitToggle++ % 2 ? chairB.id : chairA.id);
  if (fields.customerId) await t.fx.membership(store.id, fields.customerId as string);
  return insertAppointment(t.db, {
    storeId: store.id,
    unitId,
    startsAt: `${day}T10:00:00Z`,
    endsAt: `${day}T11:00:00Z`,
    ...fields,
  } as any);
}

// An account customer with a full history.
const alice = await t.fx.customer({ name: 'Alice Smith', email: 'alice@example.com' });
const aliceRows = {
  completed: await visit('2026-05-01', {
    customerId: alice.id,
    status: 'completed',
    pricePence: 3000,
    unitId: chairA.id,
  }),
  checkedIn: await visit('2026-05-10', {
    customerId: alice.id,
    status: 'checked_in',
    pricePence: 2000,
    unitId: chairB.id,
  }),
  noShow: await visit('2026-05-20', { customerId: alice.id, status: 'no_show', pricePence: 2500 }),
  cancelled: await visit('2026-05-25', { customerId: alice.id, status: 'cancelled', pricePence: 1000 }),
  unresolved: await visit('2026-06-10', { customerId: alice.id, status: 'confirmed', pricePence: 1500 }),
  cancelledFuture: await visit('2026-06-18', { customerId: alice.id, status: 'cancelled', pricePence: 1000 }),
  next: await visit('2026-06-20', { customerId: alice.id, status: 'confirmed', pricePence: 4000, unitId: chairB.id }),
  later: await visit('2026-07-01', { customerId: alice.id, status: 'pending_payment', pricePence: 4000 }),
};
// A guest with the same name but another email is another person.
const guestAlice = await visit('2026-06-12', {
  guestName: 'Alice Smith',
  guestEmail: 'alice.guest@example.com',
  status: 'completed',
  pricePence: 1200,
});
// Two guest bookings sharing name and email (spelt differently) merge into one person.
const bob1 = await visit('2026-05-02', {
  guestName: '  bob   JONES ',
  guestEmail: ' BOB@Example.com',
  status: 'completed',
  pricePence: 1000,
});
const bob2 = await visit('2026-06-01', {
  guestName: 'Bob Jones',
  guestEmail: 'bob@example.com',
  status: 'completed',
  pricePence: 2000,
});
// Same name, different email: a different person.
await visit('2026-06-02', { guestName: 'Bob Jones', guestEmail: 'bobby@example.com', status: 'confirmed' });
// Someone seen only in the future.
await visit('2026-06-25', { guestName: 'Alicia Future', guestEmail: 'af@example.com', status: 'confirmed' });
// A customer erased under data-protection law: their rows stay, they cannot be found (every kind of
// needle and erasure: erased.test.ts).
const erased = await t.fx.customer({ name: 'Alice Erased', email: 'alice.erased@example.com' });
const erasedRow = await visit('2026-06-05', { customerId: erased.id, status: 'completed', pricePence: 9900 });
await t.db.query('UPDATE customers SET erased_at = $1 WHERE id = $2', ['2026-06-06T00:00:00Z', erased.id]);
// Another store's Alice.
const theirUnit = await t.fx.unit(other.id);
await insertAppointment(t.db, {
  storeId: other.id,
  unitId: theirUnit.id,
  startsAt: '2026-06-14T10:00:00Z',
  endsAt: '2026-06-14T11:00:00Z',
  guestName: 'Alice Other',
  guestEmail: 'ao@example.com',
});

const person = (body: any, key: string) => body.people.find((p: any) => p.key === key);

test("an account booking groups under c:<customer_id> with the spec's counts", async () => {
  const res = await search({ q: 'smith' });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const p = person(res.body, `c:${alice.id}`);
  assert.ok(p, JSON.stringify(res.body.people.map((x: any) => x.key)));
  assert.deepEqual(
    { ...p, recent: undefined },
    {
      key: `c:${alice.id}`,
      customer_id: alice.id,
      name: 'Alice Smith',
      email: 'alice@example.com',
      currency: 'GBP',
      visits: 2,
      no_shows: 1,
      cancelled: 2,
      unresolved: 1,
      first_visit: '2026-05-01T10:00:00.000Z',
      last_visit: '2026-05-10T10:00:00.000Z',
      next_visit: '2026-06-20T10:00:00.000Z',
      spend_pence: 5000,
      recent: undefined,
    },
  );
});

test('recent is newest first with the unit name, capped by visit_limit (default 12)', async () => {
  const all = person((await search({ q: 'alice smith' })).body, `c:${alice.id}`);
  assert.equal(all.recent.length, 8);
  assert.deepEqual(
    all.recent.map((r: any) => r.id),
    [
      aliceRows.later,
      aliceRows.next,
      aliceRows.cancelledFuture,
      aliceRows.unresolved,
      aliceRows.cancelled,
      aliceRows.noShow,
      aliceRows.checkedIn,
      aliceRows.completed,
    ],
  );
  assert.deepEqual(all.recent[1], {
    id: aliceRows.next,
    starts_at: '2026-06-20T10:00:00.000Z',
    ends_at: '2026-06-20T11:00:00.000Z',
    status: 'confirmed',
    payment_status: 'none',
    price_pence: 4000,
    currency: 'GBP',
    unit_name: 'Chair B',
  });
  const capped = person((await search({ q: 'alice smith', visit_limit: 3 })).body, `c:${alice.id}`);
  assert.deepEqual(
    capped.recent.map((r: any) => r.id),
    [aliceRows.later, aliceRows.next, aliceRows.cancelledFuture],
  );
  assert.equal(capped.visits, 2, 'counts are over every appointment, not only the recent ones');
});

test('a guest groups under g:<name>|<email>, separate from an account of the same name', async () => {
  const res = await search({ q: 'alice smith' });
  const g = person(res.body, 'g:alice smith|alice.guest@example.com');
  assert.deepEqual(
    { ...g, recent: g.recent.map((r: any) => r.id) },
    {
      key: 'g:alice smith|alice.guest@example.com',
      customer_id: null,
      name: 'Alice Smith',
      email: 'alice.guest@example.com',
      currency: 'GBP',
      visits: 1,
      no_shows: 0,
      cancelled: 0,
      unresolved: 0,
      first_visit: '2026-06-12T10:00:00.000Z',
      last_visit: '2026-06-12T10:00:00.000Z',
      next_visit: null,
      spend_pence: 1200,
      recent: [guestAlice],
    },
  );
  assert.equal(res.body.total, 2);
});

test('two guests sharing name and email merge, whatever their case and spacing; another email is another person', async () => {
  const res = await search({ q: 'bob' });
  assert.deepEqual(res.body.people.map((p: any) => p.key).sort(), [
    'g:bob jones|bob@example.com',
    'g:bob jones|bobby@example.com',
  ]);
  const bob = person(res.body, 'g:bob jones|bob@example.com');
  assert.equal(bob.name, 'Bob Jones', 'the most recent name booked under');
  assert.equal(bob.email, 'bob@example.com');
  assert.equal(bob.visits, 2);
  assert.equal(bob.spend_pence, 3000);
  assert.deepEqual(
    bob.recent.map((r: any) => r.id),
    [bob2, bob1],
  );
});

test('a guest is found by part of their email', async () => {
  const res = await search({ q: 'GUEST@exam' });
  assert.deepEqual(
    res.body.people.map((p: any) => p.key),
    ['g:alice smith|alice.guest@example.com'],
  );
});

test("an account is found by part of the customer's email", async () => {
  const res = await search({ q: 'alice@' });
  assert.deepEqual(
    res.body.people.map((p: any) => p.key),
    [`c:${alice.id}`],
  );
});

test('a customer erased under data-protection law cannot be found; their rows stay', async () => {
  for (const q of ['erased', 'alice.erased@example.com']) {
    const res = await search({ q });
    assert.equal(res.status, 200);
    assert.equal(res.body.total, 0);
    assert.deepEqual(res.body.people, []);
  }
  const all = await search({ q: 'alice' });
  assert.ok(all.body.people.every((p: any) => p.key !== `c:${erased.id}`));
  const row = (await t.db.query('SELECT price_pence, customer_id FROM appointments WHERE id = $1', [erasedRow]))
    .rows[0];
  assert.deepEqual(row, { price_pence: 9900, customer_id: erased.id });
});

test('people are most recently seen first; someone seen only in the future comes last', async () => {
  const res = await search({ q: 'ali' });
  assert.deepEqual(
    res.body.people.map((p: any) => p.key),
    [
      'g:alice smith|alice.guest@example.com', // last seen 12 June
      `c:${alice.id}`, // last seen 10 June (unresolved); later ones are in the future
      'g:alicia future|af@example.com', // never seen yet
    ],
  );
  assert.equal(person(res.body, 'g:alicia future|af@example.com').next_visit, '2026-06-25T10:00:00.000Z');
});

test('total counts every matching person before limit', async () => {
  const res = await search({ q: 'ali', limit: 1 });
  assert.equal(res.body.total, 3);
  assert.deepEqual(
    res.body.people.map((p: any) => p.key),
    ['g:alice smith|alice.guest@example.com'],
  );
});

test('an account with only a cancelled future booking is still a person; one with no booking here is not', async () => {
  const ahead = await t.fx.customer({ name: 'Zelda Ahead', email: 'zelda.ahead@example.com' });
  await t.fx.membership(store.id, ahead.id);
  const row = await visit('2026-07-10', { customerId: ahead.id, status: 'cancelled', pricePence: 500 });
  const elsewhere = await t.fx.customer({ name: 'Zelda Elsewhere', email: 'zelda.elsewhere@example.com' });
  await t.fx.membership(store.id, elsewhere.id);
  try {
    const res = await search({ q: 'zelda' });
    assert.equal(res.status, 200);
    assert.equal(res.body.total, 1);
    const p = person(res.body, `c:${ahead.id}`);
    assert.equal(p.next_visit, null, 'a cancelled booking is no next visit');
    assert.equal(p.last_visit, null);
    assert.equal(p.cancelled, 1);
    assert.deepEqual(
      p.recent.map((r: any) => r.id),
      [row],
    );
  } finally {
    await t.db.query('DELETE FROM appointments WHERE id = $1', [row]);
  }
});

test('accounts seen only in the future come soonest next visit first, a cancelled booking being no next visit', async () => {
  const [soon, later, none] = await Promise.all(
    ['Yara Soon', 'Yara Later', 'Yara None'].map(async (name, i) => {
      const c = await t.fx.customer({ name, email: `yara${i}@example.com` });
      await t.fx.membership(store.id, c.id);
      return c;
    }),
  );
  const rows = [
    await visit('2026-07-15', { customerId: soon.id, status: 'confirmed' }),
    await visit('2026-07-20', { customerId: soon.id, status: 'confirmed' }),
    // Earlier than Soon's, but cancelled: Later's next visit is 18 July.
    await visit('2026-07-12', { customerId: later.id, status: 'cancelled' }),
    await visit('2026-07-18', { customerId: later.id, status: 'pending_payment' }),
    await visit('2026-07-11', { customerId: none.id, status: 'no_show' }),
  ];
  try {
    const res = await search({ q: 'yara' });
    assert.deepEqual(
      res.body.people.map((p: any) => [p.key, p.next_visit]),
      [
        [`c:${soon.id}`, '2026-07-15T10:00:00.000Z'],
        [`c:${later.id}`, '2026-07-18T10:00:00.000Z'],
        [`c:${none.id}`, null],
      ],
    );
  } finally {
    await t.db.query('DELETE FROM appointments WHERE id = ANY($1)', [rows]);
  }
});

test('unresolved and next visit are relative to now', async () => {
  t.clock.set('2026-06-21T12:00:00Z');
  try {
    const p = person((await search({ q: 'alice@example' })).body, `c:${alice.id}`);
    assert.equal(p.unresolved, 2); // 10 June and 20 June are past and still confirmed
    assert.equal(p.next_visit, '2026-07-01T10:00:00.000Z');
  } finally {
    t.clock.set(NOW);
  }
});

test('the response echoes the normalised needle with the store and its timezone', async () => {
  const res = await search({ q: '  Alice \t  SMITH ' });
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body).sort(), ['people', 'query', 'store_id', 'timezone', 'total']);
  assert.equal(res.body.query, 'alice smith');
  assert.equal(res.body.store_id, store.id);
  assert.equal(res.body.timezone, 'Europe/London');
  assert.equal(res.body.total, 2);
});

test('a needle shorter than 2 characters after trimming is refused with QUERY_TOO_SHORT', async () => {
  for (const q of ['a', '  b  ', '']) {
    const res = await search({ q });
    assert.equal(res.status, 400, JSON.stringify(q));
    assert.equal(errorCode(res), 'QUERY_TOO_SHORT');
  }
});

test('LIKE wildcards in the needle are taken literally', async () => {
  for (const q of ['%%', '__']) {
    const res = await search({ q });
    assert.equal(res.status, 200);
    assert.equal(res.body.total, 0, q);
  }
});

test('limit and visit_limit are bounded (100 and 50)', async () => {
  assert.equal((await search({ q: 'ali', limit: 100, visit_limit: 50 })).status, 200);
  for (const query of [{ limit: 101 }, { visit_limit: 51 }, { limit: 0 }, { visit_limit: -1 }]) {
    const res = await search({ q: 'ali', ...query });
    assert.equal(res.status, 400, JSON.stringify(query));
    assert.equal(errorCode(res), 'VALIDATION_FAILED');
  }
});

test("the store is the token's: another store's people are never found", async () => {
  const res = await search({ q: 'alice other', store_id: other.id });
  assert.equal(res.body.store_id, store.id);
  assert.equal(res.body.total, 0);
});

test('search needs merchant:read', async () => {
  const noScope = await t.fx.merchantToken(store.id, { scopes: [] });
  const res = await search({ q: 'alice' }, noScope);
  assert.equal(res.status, 403);
  assert.equal(errorCode(res), 'INSUFFICIENT_SCOPE');
  const readOnly = await t.fx.merchantToken(store.id, { scopes: ['merchant:read'] });
  assert.equal((await search({ q: 'alice' }, readOnly)).status, 200);
});
