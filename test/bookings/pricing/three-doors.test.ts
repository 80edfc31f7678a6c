// The one price rule (docs/decisions/pricing.md), pinned from every door: the same party booked for
// the same service at the desk (the merchant's create), at the walk-in queue (the seat) and online
// (hold, then confirm) costs the same. A per_person service costs its price once a head; the
// merchant may state price_pence instead. What each door asks up front is its own rule: online asks
// the service's deposit (of the party's price), the desk and the walk-in ask none; what is owed is
// the same everywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { confirm, hold, shop, type Shop } from '../online/helpers.ts';

const t = await startTestApp({ now: '2026-06-01T08:00:00Z' });
const NINE = '2026-06-02T08:00:00.000Z';
const TEN = '2026-06-02T09:00:00.000Z';

type Money = { price_pence: number; deposit_pence: number; balance_pence: number; party_size: number };
const money = (a: any): Money => ({
  price_pence: a.price_pence,
  deposit_pence: a.deposit_pence,
  balance_pence: a.balance_pence,
  party_size: a.party_size,
});

async function atTheDesk(w: Shop, party: number, extra: Record<string, unknown> = {}): Promise<Money> {
  const res = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token: w.merchant,
    body: {
      store_id: w.storeId,
      unit_id: w.units[1],
      service_id: w.serviceId,
      party_size: party,
      starts_at: NINE,
      ends_at: TEN,
      guest_name: 'Desk Party',
      guest_email: 'desk-party@example.com',
      ...extra,
    },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.reused, false);
  return money(res.body.appointment);
}

async function atTheQueue(w: Shop, party: number): Promise<Money> {
  const joined = await call(t.app, 'POST', '/api/v1/bookings/queue/join', {
    token: w.merchant,
    body: { store_id: w.storeId, guest_name: 'Walk-in Party', service_id: w.serviceId, party_size: party },
  });
  assert.equal(joined.status, 200, JSON.stringify(joined.body));
  const seated = await call(t.app, 'POST', '/api/v1/bookings/queue/assign', {
    token: w.merchant,
    body: { store_id: w.storeId, entry_id: joined.body.entry.entry_id, unit_id: w.units[2] },
  });
  assert.equal(seated.status, 200, JSON.stringify(seated.body));
  const read = await call(t.app, 'GET', `/api/v1/bookings/appointments/${seated.body.appointment_id}`, {
    token: w.merchant,
    query: { store_id: w.storeId },
  });
  assert.equal(read.status, 200, JSON.stringify(read.body));
  return money(read.body.appointment);
}

async function online(w: Shop, party: number): Promise<Money> {
  const held = await hold(w, { starts_at: NINE, party_size: party, unit_id: w.units[0] });
  assert.equal(held.status, 200, JSON.stringify(held.body));
  const res = await confirm(w, held.body.hold.id);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return money(res.body.appointment);
}

const perHead = { price_type: 'per_person', price_pence: 1500, party_min: 1, party_max: 6 };

test('a party of three for a per_person service costs three heads from every door: desk, walk-in queue and online', async () => {
  const w = await shop({ t, units: 3, service: perHead });
  const [desk, queue, web] = [await atTheDesk(w, 3), await atTheQueue(w, 3), await online(w, 3)];
  const expected = { price_pence: 4500, deposit_pence: 0, balance_pence: 4500, party_size: 3 };
  assert.deepEqual({ desk, queue, web }, { desk: expected, queue: expected, web: expected });
});

test('with a deposit policy the price and the balance still agree; only online asks the deposit, of the party price', async () => {
  const w = await shop({ t, units: 3, service: { ...perHead, deposit_policy: JSON.stringify({ percent: 20 }) } });
  const [desk, queue, web] = [await atTheDesk(w, 3), await atTheQueue(w, 3), await online(w, 3)];
  assert.deepEqual(desk, { price_pence: 4500, deposit_pence: 0, balance_pence: 4500, party_size: 3 });
  assert.deepEqual(queue, desk);
  // 20% of 4500: the deposit follows the party's price, not one head's. Owed until paid: all of it.
  assert.deepEqual(web, { price_pence: 4500, deposit_pence: 900, balance_pence: 4500, party_size: 3 });
});

test('a fixed-price service costs its price once whatever the party, from every door', async () => {
  const w = await shop({
    t,
    units: 3,
    service: { price_type: 'fixed', price_pence: 2000, party_min: 1, party_max: 6 },
  });
  const [desk, queue, web] = [await atTheDesk(w, 4), await atTheQueue(w, 4), await online(w, 4)];
  const expected = { price_pence: 2000, deposit_pence: 0, balance_pence: 2000, party_size: 4 };
  assert.deepEqual({ desk, queue, web }, { desk: expected, queue: expected, web: expected });
});

test('the merchant stating price_pence wins over the rule at the desk', async () => {
  const w = await shop({ t, units: 3, service: perHead });
  assert.deepEqual(await atTheDesk(w, 3, { price_pence: 1000 }), {
    price_pence: 1000,
    deposit_pence: 0,
    balance_pence: 1000,
    party_size: 3,
  });
});
