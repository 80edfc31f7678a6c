// The caps on live holds at every door (issue 41: one email code's token placed 27 holds through
// POST /bookings/holds and took a whole day): at most 3 per customer at a store, 3 per client address
// at a store, one per page session; each counted per store, so one shop's customers never use up
// another's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode, type CallResult } from '../../support/http.ts';
import { anotherCustomer, HOLDS, putHours, ALL_WEEK, setStore } from '../online/helpers.ts';
import { callFrom, pageHold, pageShop, type PageShop } from '../../booking-page/support.ts';

const at = (h: number) => `2026-06-02T${String(h).padStart(2, '0')}:00:00.000Z`; // London is UTC+1: 10:00-16:00 local

function customerHold(
  w: PageShop,
  startsAt: string,
  o: { token?: string; ip?: string; storeId?: string; serviceId?: string } = {},
): Promise<CallResult> {
  return callFrom(w.t.app, 'POST', HOLDS, o.ip, {
    headers: { authorization: `Bearer ${o.token ?? w.customer}` },
    body: {
      store_id: o.storeId ?? w.storeId,
      service_id: o.serviceId ?? w.serviceId,
      unit_id: w.units[0],
      starts_at: startsAt,
    },
  });
}

const live = async (w: PageShop, storeId = w.storeId) =>
  (await w.t.db.query('SELECT count(*)::int AS n FROM holds WHERE store_id = $1 AND released_at IS NULL', [storeId]))
    .rows[0].n as number;

test('one customer token holds at most 3 times at a store through POST /bookings/holds: the 4th is 429 TOO_MANY_HOLDS with Retry-After', async () => {
  const w = await pageShop({ units: 1 });
  for (const [i, h] of [9, 10, 11].entries()) {
    const res = await customerHold(w, at(h), { ip: `192.0.2.${i + 1}` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
  const fourth = await customerHold(w, at(12), { ip: '192.0.2.9' });
  assert.equal(fourth.status, 429);
  assert.equal(errorCode(fourth), 'TOO_MANY_HOLDS');
  assert.equal(fourth.headers['retry-after'], '600');
  assert.equal(await live(w), 3);
  // Once one is let go, another may be placed.
  const first = (await w.t.db.query('SELECT id FROM holds ORDER BY created_at LIMIT 1')).rows[0].id;
  assert.equal((await call(w.t.app, 'DELETE', `${HOLDS}/${first}`, { token: w.customer })).status, 200);
  assert.equal((await customerHold(w, at(12), { ip: '192.0.2.9' })).status, 200);
});

test('one address holds at most 3 times at a store, whichever customers and doors: the page and the customer API share the count', async () => {
  const w = await pageShop({ units: 1 });
  const ip = '198.51.100.4';
  assert.equal((await pageHold(w, at(9), { ip })).status, 200);
  assert.equal((await pageHold(w, at(10), { ip })).status, 200);
  const other = await anotherCustomer(w);
  assert.equal((await customerHold(w, at(11), { token: other.token, ip })).status, 200);
  const third = await anotherCustomer(w, 'Third');
  const refused = await customerHold(w, at(12), { token: third.token, ip });
  assert.equal(refused.status, 429);
  assert.equal(errorCode(refused), 'TOO_MANY_HOLDS');
  const page = await pageHold(w, at(13), { ip });
  assert.equal(page.status, 429);
  assert.equal(errorCode(page), 'TOO_MANY_HOLDS');
  // Another address is not affected.
  assert.equal((await customerHold(w, at(12), { token: third.token, ip: '198.51.100.5' })).status, 200);
});

test('the caps are counted per store: a customer and an address at their limit in one shop can still hold in another', async () => {
  const w = await pageShop({ units: 1 });
  const ip = '203.0.113.30';
  for (const h of [9, 10, 11]) assert.equal((await pageHold(w, at(h), { ip })).status, 200);
  // A second shop with its own page.
  const s2 = await w.t.fx.store();
  await setStore(w.t, s2.id, { min_notice_min: 0, booking_page_slug: 'second-shop', booking_page_enabled: true });
  const m2 = await w.t.fx.merchantToken(s2.id);
  const u2 = await w.t.fx.unit(s2.id, { display_name: 'Chair' });
  assert.equal((await putHours(w.t, m2, u2.id, ALL_WEEK([{ open: '09:00', close: '17:00' }]))).status, 200);
  const svc2 = await w.t.fx.service(s2.id, { duration_min: 60, price_pence: 4000 });
  const second: PageShop = { ...w, storeId: s2.id, units: [u2.id], serviceId: svc2.id, slug: 'second-shop' };
  assert.equal((await pageHold(second, at(9), { ip })).status, 200, 'the address holds at the second shop');
  // The customer at their limit in the first shop, through the customer API.
  for (const h of [12, 13, 14]) assert.equal((await customerHold(w, at(h), { ip: `192.0.2.${h}` })).status, 200);
  const there = await callFrom(w.t.app, 'POST', HOLDS, '192.0.2.99', {
    headers: { authorization: `Bearer ${w.customer}` },
    body: { store_id: s2.id, service_id: svc2.id, unit_id: u2.id, starts_at: at(10) },
  });
  assert.equal(there.status, 200, JSON.stringify(there.body));
  assert.equal(await live(w), 6);
  assert.equal(await live(w, s2.id), 2);
});

test('races: eight holds placed at once by one customer from eight addresses: exactly 3 are placed, the rest refused TOO_MANY_HOLDS', async () => {
  const w = await pageShop({ units: 2 });
  const app = w.t.engine === 'pg' ? await w.t.sibling() : w.t.app;
  // Eight holds that could all be placed (09:00 to 12:00 UTC on each of two units; the shop opens
  // 10:00-16:00 local), so whichever three pass the cap first are placed: only the cap refuses.
  const answers = await Promise.all(
    [9, 10, 11, 12, 9, 10, 11, 12].map((h, i) =>
      callFrom(i % 2 ? app : w.t.app, 'POST', HOLDS, `192.0.2.${i + 1}`, {
        headers: { authorization: `Bearer ${w.customer}` },
        body: { store_id: w.storeId, service_id: w.serviceId, unit_id: w.units[i < 4 ? 0 : 1], starts_at: at(h) },
      }),
    ),
  );
  const statuses = answers.map((a) => a.status).sort();
  assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429, 429, 429], JSON.stringify(answers.map((a) => a.body)));
  assert.ok(answers.filter((a) => a.status === 429).every((a) => errorCode(a) === 'TOO_MANY_HOLDS'));
  assert.equal(await live(w), 3);
});
