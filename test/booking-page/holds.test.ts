// The guest's hold from the booking page: held before sign-in, owned by the page session, one live
// hold per browser, a few per client address, guarded by the challenge and the honeypot; confirmed
// by the signed-in customer through the booking authority.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../support/http.ts';
import { BOOK, callFrom, pageHold, pageShop, signIn, solved } from './support.ts';

const T10 = '2026-06-02T10:00:00.000Z'; // 11:00 in London
const T12 = '2026-06-02T12:00:00.000Z';
const T14 = '2026-06-02T14:00:00.000Z';

async function liveHolds(w: { t: { db: any } }) {
  const res =
    await w.t.db.query(`SELECT id, customer_id, page_session, client_address_hash, starts_at, released_at, release_reason
                                    FROM holds ORDER BY created_at, id`);
  return res.rows as Array<Record<string, any>>;
}

test('a guest holds a time before sign-in: no customer, a page session, the address only as a hash', async () => {
  const w = await pageShop();
  const res = await pageHold(w, T10, { ip: '203.0.113.7' });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.hold.starts_at, T10);
  assert.equal(res.body.hold.unit_id, w.units[0]);
  assert.equal(res.body.hold.expires_at, '2026-06-01T09:10:00.000Z');
  assert.equal(typeof res.body.page_session, 'string');
  const rows = await liveHolds(w);
  assert.equal(rows.length, 1);
  assert.equal(rows[0].customer_id, null);
  assert.match(rows[0].page_session, /^[0-9a-f-]{36}$/);
  assert.match(rows[0].client_address_hash, /^[0-9a-f]{64}$/);
  assert.ok(!JSON.stringify(rows).includes('203.0.113.7'), 'the address itself is stored nowhere');
  // The slot is held: the page no longer offers it.
  const search = await call(w.t.app, 'GET', `${BOOK}/availability`, {
    query: { service_id: w.serviceId, from_date: '2026-06-02', to_date: '2026-06-02' },
  });
  assert.ok(!search.body.days[0].slots.some((s: any) => s.starts_at === T10));
});

test('one live hold per browser: a new hold from the same session releases the previous one', async () => {
  const w = await pageShop();
  const first = await pageHold(w, T10);
  const second = await pageHold(w, T12, { session: first.body.page_session });
  assert.equal(second.status, 200, JSON.stringify(second.body));
  assert.equal(second.body.page_session, first.body.page_session);
  const rows = new Map((await liveHolds(w)).map((r) => [r.id, r.release_reason]));
  assert.deepEqual(
    [...rows.entries()].sort(),
    [
      [first.body.hold.id, 'released'],
      [second.body.hold.id, null],
    ].sort(),
  );
  const events = await w.t.db.query(`SELECT type FROM events WHERE type LIKE 'hold.%' ORDER BY seq`);
  assert.deepEqual(
    events.rows.map((e: any) => e.type),
    ['hold.created', 'hold.released', 'hold.created'],
  );
});

test('an address keeps at most 3 live holds: the 4th is refused 429 TOO_MANY_HOLDS with Retry-After, and holds nothing', async () => {
  const w = await pageShop();
  const ip = '198.51.100.20';
  for (const t of [T10, T12, T14]) assert.equal((await pageHold(w, t, { ip })).status, 200);
  const fourth = await pageHold(w, '2026-06-02T15:00:00.000Z', { ip });
  assert.equal(fourth.status, 429);
  assert.equal(errorCode(fourth), 'TOO_MANY_HOLDS');
  assert.equal(fourth.headers['retry-after'], '600');
  assert.equal((await liveHolds(w)).length, 3);
  // Another address is not affected; once the holds lapse, the address may hold again.
  assert.equal((await pageHold(w, '2026-06-02T15:00:00.000Z', { ip: '198.51.100.21' })).status, 200);
  w.t.clock.advance(10 * 60_000);
  assert.equal((await pageHold(w, '2026-06-02T13:00:00.000Z', { ip })).status, 200);
});

test('a filled honeypot and a missing or reused challenge are refused, and hold nothing', async () => {
  const w = await pageShop();
  const honeypot = await pageHold(w, T10, { website: 'http://spam.example' });
  assert.equal(honeypot.status, 400);
  assert.equal(errorCode(honeypot), 'REQUEST_REFUSED');
  assert.ok(!/honeypot|website/i.test(honeypot.body.error.message), 'the refusal explains nothing');
  const payload = await solved(w.t.app);
  assert.equal((await pageHold(w, T10, { altcha: payload })).status, 200);
  const replay = await pageHold(w, T12, { altcha: payload });
  assert.equal(replay.status, 400);
  assert.equal(errorCode(replay), 'CHALLENGE_FAILED');
  assert.equal((await pageHold(w, T12, { altcha: 'not-a-payload' })).status, 400);
  assert.equal((await liveHolds(w)).length, 1);
});

test('release needs the session that placed the hold; another session reads it as missing', async () => {
  const w = await pageShop();
  const mine = await pageHold(w, T10);
  const theirs = await pageHold(w, T12);
  const url = `${BOOK}/holds/${mine.body.hold.id}`;
  const stranger = await call(w.t.app, 'DELETE', url, { headers: { 'x-page-session': theirs.body.page_session } });
  assert.equal(stranger.status, 404);
  assert.equal((await call(w.t.app, 'DELETE', url)).status, 404);
  const ok = await call(w.t.app, 'DELETE', url, { headers: { 'x-page-session': mine.body.page_session } });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.deepEqual(ok.body, { hold_id: mine.body.hold.id, released: true, noop: false });
  const again = await call(w.t.app, 'DELETE', url, { headers: { 'x-page-session': mine.body.page_session } });
  assert.deepEqual(again.body, { hold_id: mine.body.hold.id, released: false, noop: true });
});

test('guest hold, email code, confirm: an online appointment for the verified customer; a retry creates nothing new', async () => {
  const w = await pageShop();
  const held = await pageHold(w, T10);
  const me = await signIn(w, 'new.guest@example.com', { name: 'New Guest', phone: '07812 345678' });
  const url = `${BOOK}/holds/${held.body.hold.id}/confirm`;
  const headers = { 'x-page-session': held.body.page_session };
  const res = await call(w.t.app, 'POST', url, { token: me.token, headers, body: { guest_note: 'Window seat' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const a = res.body.appointment;
  assert.equal(a.status, 'confirmed');
  assert.equal(a.source, 'online');
  assert.equal(a.customer_id, me.customerId);
  assert.equal(a.starts_at, T10);
  assert.equal(res.body.reused, false);
  assert.match(res.body.manage_url, /^http:\/\/localhost:3000\/book\/test-salon\/manage#token=[\w-]+\.[\w-]+\.[\w-]+$/);
  const retry = await call(w.t.app, 'POST', url, { token: me.token, headers, body: {} });
  assert.equal(retry.status, 200);
  assert.equal(retry.body.appointment.id, a.id);
  assert.equal(retry.body.reused, true);
  const rows = await w.t.db.query(`SELECT customer_id, source, status FROM appointments`);
  assert.deepEqual(rows.rows, [{ customer_id: me.customerId, source: 'online', status: 'confirmed' }]);
  const hold = await w.t.db.query('SELECT customer_id, release_reason, appointment_id FROM holds');
  assert.deepEqual(hold.rows, [{ customer_id: me.customerId, release_reason: 'confirmed', appointment_id: a.id }]);
  const customer = await w.t.db.query('SELECT name, email, phone FROM customers WHERE id = $1', [me.customerId]);
  assert.deepEqual(customer.rows[0], { name: 'New Guest', email: 'new.guest@example.com', phone: '+447812345678' });
});

test('confirm with a deposit due makes a pending_payment booking; no money moves', async () => {
  const w = await pageShop({ service: { deposit_policy: JSON.stringify({ amount_pence: 1000 }) } });
  const held = await pageHold(w, T10);
  const me = await signIn(w, 'deposit@example.com');
  const res = await call(w.t.app, 'POST', `${BOOK}/holds/${held.body.hold.id}/confirm`, {
    token: me.token,
    headers: { 'x-page-session': held.body.page_session },
    body: {},
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.appointment.status, 'pending_payment');
  assert.equal(res.body.appointment.deposit_pence, 1000);
  const paid = await w.t.db.query('SELECT settled_pence, payment_status FROM appointments');
  assert.deepEqual(paid.rows, [{ settled_pence: 0, payment_status: 'none' }]);
});

test('confirm is refused for another session, an expired hold, and a customer the store blocked; nothing is booked', async () => {
  const w = await pageShop();
  const held = await pageHold(w, T10);
  const me = await signIn(w, 'late@example.com');
  const url = `${BOOK}/holds/${held.body.hold.id}/confirm`;
  const other = await pageHold(w, T12);
  const wrong = await call(w.t.app, 'POST', url, {
    token: me.token,
    headers: { 'x-page-session': other.body.page_session },
    body: {},
  });
  assert.equal(wrong.status, 404);
  const noToken = await call(w.t.app, 'POST', url, { headers: { 'x-page-session': held.body.page_session }, body: {} });
  assert.equal(noToken.status, 401);

  await w.t.db.query(`INSERT INTO store_customers (store_id, customer_id, blocked) VALUES ($1, $2, true)`, [
    w.storeId,
    me.customerId,
  ]);
  const blocked = await call(w.t.app, 'POST', url, {
    token: me.token,
    headers: { 'x-page-session': held.body.page_session },
    body: {},
  });
  assert.equal(blocked.status, 409);
  assert.equal(errorCode(blocked), 'CUSTOMER_BLOCKED');
  await w.t.db.query('UPDATE store_customers SET blocked = false WHERE customer_id = $1', [me.customerId]);

  w.t.clock.advance(11 * 60_000);
  const expired = await call(w.t.app, 'POST', url, {
    token: me.token,
    headers: { 'x-page-session': held.body.page_session },
    body: {},
  });
  assert.equal(expired.status, 409);
  assert.equal(errorCode(expired), 'HOLD_EXPIRED');
  assert.match(expired.body.error.message, /lapsed/);
  assert.equal((await w.t.db.query('SELECT count(*)::int AS n FROM appointments')).rows[0].n, 0);
  const hold = await w.t.db.query('SELECT customer_id FROM holds WHERE id = $1', [held.body.hold.id]);
  assert.equal(hold.rows[0].customer_id, null, 'a refused confirm leaves the hold as it was');
});

test('a held slot cannot be taken by another browser: the second hold is refused and holds nothing', async () => {
  const w = await pageShop();
  assert.equal((await pageHold(w, T10, { unitId: w.units[0] })).status, 200);
  const second = await pageHold(w, T10, { unitId: w.units[0] });
  assert.equal(second.status, 409, JSON.stringify(second.body));
  assert.ok(['SLOT_UNAVAILABLE', 'SLOT_TAKEN', 'UNIT_UNAVAILABLE'].includes(errorCode(second)));
  assert.equal((await liveHolds(w)).length, 1);
  void callFrom;
});
