// Holds at checkout and their confirmation into an appointment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import {
  ALL_WEEK,
  anotherCustomer,
  confirm,
  count,
  eventsOf,
  hold,
  HOLDS,
  localTimesOf,
  putHours,
  search,
  shop,
} from '../online/helpers.ts';

// Monday 2026-06-01 09:00 BST; 2026-06-02 08:00Z is 09:00 local.
const t = await startTestApp({ now: '2026-06-01T08:00:00Z' });
const NINE = '2026-06-02T08:00:00.000Z';

test('hold then confirm: an online appointment with the price of service, variant and add-ons snapshotted; events; a retry returns it', async () => {
  const w = await shop({ t, service: { duration_min: 30, price_pence: 2000 } });
  const v = await t.db.query<{ id: string }>(
    `INSERT INTO service_variants (store_id, service_id, name, duration_min, price_pence) VALUES ($1, $2, 'Long', 45, 3000) RETURNING id`,
    [w.storeId, w.serviceId],
  );
  const a = await t.db.query<{ id: string }>(
    `INSERT INTO service_addons (store_id, service_id, name, extra_min, extra_pence) VALUES ($1, $2, 'Mask', 15, 500) RETURNING id`,
    [w.storeId, w.serviceId],
  );
  const held = await hold(w, { starts_at: NINE, variant_id: v.rows[0].id, addon_ids: [a.rows[0].id] });
  assert.equal(held.status, 200, JSON.stringify(held.body));
  assert.deepEqual(held.body.hold, {
    id: held.body.hold.id,
    unit_id: w.units[0],
    starts_at: NINE,
    ends_at: '2026-06-02T09:00:00.000Z',
    expires_at: '2026-06-01T08:10:00.000Z',
    // The quote: the variant's 3000 plus the add-on's 500, no deposit policy.
    price_pence: 3500,
    deposit_pence: 0,
    currency: 'GBP',
  });
  const first = await confirm(w, held.body.hold.id, w.customer, t.app, { guest_note: 'Window seat please' });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const appt = first.body.appointment;
  assert.equal(first.body.reused, false);
  assert.deepEqual(
    {
      status: appt.status,
      source: appt.source,
      price: appt.price_pence,
      deposit: appt.deposit_pence,
      payment: appt.payment_status,
      customer: appt.customer_id,
      unit: appt.unit_id,
      starts: appt.starts_at,
      ends: appt.ends_at,
    },
    {
      status: 'confirmed',
      source: 'online',
      price: 3500,
      deposit: 0,
      payment: 'none',
      customer: w.customerId,
      unit: w.units[0],
      starts: NINE,
      ends: '2026-06-02T09:00:00.000Z',
    },
  );
  // A later price change never reprices it.
  await t.db.query('UPDATE service_variants SET price_pence = 9999 WHERE id = $1', [v.rows[0].id]);
  const again = await confirm(w, held.body.hold.id);
  assert.deepEqual(again.body, { appointment: appt, reused: true });
  assert.equal(await count(t, 'SELECT count(*) AS n FROM appointments WHERE store_id = $1', [w.storeId]), 1);
  assert.equal(
    await count(t, `SELECT count(*) AS n FROM appointments WHERE id = $1 AND guest_note = 'Window seat please'`, [
      appt.id,
    ]),
    1,
  );
  // The shop reads the note on the appointment (never in an event, nor the diary's list, whose fields the spec closes).
  const read = await call(t.app, 'GET', `/api/v1/bookings/appointments/${appt.id}`, { token: w.merchant });
  assert.equal(read.status, 200, JSON.stringify(read.body));
  assert.equal(read.body.appointment.guest_note, 'Window seat please');
  const day = await call(t.app, 'GET', '/api/v1/bookings/diary', {
    token: w.merchant,
    query: { store_id: w.storeId, from_date: '2026-06-02', to_date: '2026-06-02' },
  });
  assert.equal(day.status, 200, JSON.stringify(day.body));
  assert.deepEqual(
    day.body.units[0].appointments.map((x: any) => [x.id, 'guest_note' in x]),
    [[appt.id, false]],
  );
  assert.equal(JSON.stringify(await eventsOf(t, w.storeId, 'appointment.created')).includes('Window seat'), false);
  assert.equal((await eventsOf(t, w.storeId, 'hold.created')).length, 1);
  const created = await eventsOf(t, w.storeId, 'appointment.created');
  assert.equal(created.length, 1);
  assert.equal(created[0].source, 'online');
  assert.equal(created[0].id, appt.id);
  const released = await eventsOf(t, w.storeId, 'hold.released');
  assert.deepEqual(
    [released.length, released[0].release_reason, released[0].appointment_id],
    [1, 'confirmed', appt.id],
  );
  // The slot is gone from the search.
  assert.ok(
    !localTimesOf(await search(w, { from_date: '2026-06-02', to_date: '2026-06-02' }), '2026-06-02').includes('09:00'),
  );
});

test('"any unit" holds take the first free unit in diary order, one unit each, and record how', async () => {
  const w = await shop({ t, units: 2 });
  const other = await anotherCustomer(w);
  const third = await anotherCustomer(w, 'Third');
  const a = await hold(w, { starts_at: NINE });
  const b = await hold(w, { starts_at: NINE }, other.token);
  assert.deepEqual([a.body.hold.unit_id, b.body.hold.unit_id], w.units);
  assert.equal(errorCode(await hold(w, { starts_at: NINE }, third.token)), 'SLOT_UNAVAILABLE');
  const rows = await t.db.query<{ unit_choice: string; n: number }>(
    `SELECT h.unit_choice, (SELECT count(*) FROM unit_occupancy o WHERE o.hold_id = h.id)::int AS n FROM holds h WHERE h.store_id = $1`,
    [w.storeId],
  );
  assert.deepEqual(rows.rows, [
    { unit_choice: 'first_free', n: 1 },
    { unit_choice: 'first_free', n: 1 },
  ]);
  const asked = await hold(w, { starts_at: '2026-06-02T09:00:00Z', unit_id: w.units[1] }, third.token);
  assert.equal(asked.body.hold.unit_id, w.units[1]);
});

test('a start availability would not offer is refused: off the step, outside hours, over a booking', async () => {
  const w = await shop({ t });
  for (const starts_at of [
    '2026-06-02T08:07:00Z',
    '2026-06-02T07:00:00Z',
    '2026-06-02T15:30:00Z',
    '2026-05-31T08:00:00Z',
  ]) {
    assert.equal(errorCode(await hold(w, { starts_at })), 'SLOT_UNAVAILABLE', starts_at);
  }
  await call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token: w.merchant,
    body: {
      store_id: w.storeId,
      unit_id: w.units[0],
      starts_at: '2026-06-02T08:30:00Z',
      ends_at: '2026-06-02T09:00:00Z',
      guest_email: 'g@example.com',
    },
  });
  assert.equal(errorCode(await hold(w, { starts_at: NINE })), 'SLOT_UNAVAILABLE');
  assert.equal(await count(t, 'SELECT count(*) AS n FROM holds WHERE store_id = $1', [w.storeId]), 0);
});

test('expiry on the fixed clock: a lapsed hold stops blocking with no job, is released when noticed (hold.expired), and cannot be confirmed', async () => {
  const w = await shop({ t, settings: { hold_minutes: 5 } });
  const other = await anotherCustomer(w);
  const first = await hold(w, { starts_at: NINE });
  assert.equal(first.body.hold.expires_at, '2026-06-01T08:05:00.000Z');
  assert.equal(errorCode(await hold(w, { starts_at: NINE }, other.token)), 'SLOT_UNAVAILABLE');
  t.clock.advance(5 * 60_000);
  try {
    assert.ok(
      localTimesOf(await search(w, { from_date: '2026-06-02', to_date: '2026-06-02' }), '2026-06-02').includes('09:00'),
    );
    assert.equal(errorCode(await confirm(w, first.body.hold.id)), 'HOLD_EXPIRED');
    const second = await hold(w, { starts_at: NINE }, other.token);
    assert.equal(second.status, 200);
    const expired = await eventsOf(t, w.storeId, 'hold.expired');
    assert.deepEqual(
      expired.map((e) => [e.id, e.release_reason]),
      [[first.body.hold.id, 'expired']],
    );
    assert.equal(errorCode(await confirm(w, first.body.hold.id)), 'HOLD_EXPIRED');
    assert.equal((await confirm(w, second.body.hold.id, other.token)).status, 200);
  } finally {
    t.clock.set('2026-06-01T08:00:00Z');
  }
});

test("release is idempotent and frees the slot; someone else's hold reads as missing", async () => {
  const w = await shop({ t });
  const other = await anotherCustomer(w);
  const held = await hold(w, { starts_at: NINE });
  const id = held.body.hold.id;
  assert.equal((await call(t.app, 'DELETE', `${HOLDS}/${id}`, { token: other.token })).status, 404);
  assert.equal((await confirm(w, id, other.token)).status, 404);
  assert.deepEqual((await call(t.app, 'DELETE', `${HOLDS}/${id}`, { token: w.customer })).body, {
    hold_id: id,
    released: true,
    noop: false,
  });
  assert.deepEqual((await call(t.app, 'DELETE', `${HOLDS}/${id}`, { token: w.customer })).body, {
    hold_id: id,
    released: false,
    noop: true,
  });
  assert.equal(errorCode(await confirm(w, id)), 'HOLD_RELEASED');
  assert.equal((await eventsOf(t, w.storeId, 'hold.released')).length, 1);
  assert.equal((await hold(w, { starts_at: NINE }, other.token)).status, 200);
});

test('confirm asks availability again: hours withdrawn since the hold refuse it and keep the hold', async () => {
  const w = await shop({ t });
  const held = await hold(w, { starts_at: NINE });
  assert.equal((await putHours(t, w.merchant, w.units[0], ALL_WEEK([{ open: '12:00', close: '17:00' }]))).status, 200);
  assert.equal(errorCode(await confirm(w, held.body.hold.id)), 'SLOT_UNAVAILABLE');
  assert.equal(
    await count(t, 'SELECT count(*) AS n FROM holds WHERE id = $1 AND released_at IS NULL', [held.body.hold.id]),
    1,
  );
});

test('holds and appointments exclude each other in the database; a merchant override is exempt', async () => {
  const w = await shop({ t });
  const held = await hold(w, { starts_at: NINE });
  const body = {
    store_id: w.storeId,
    unit_id: w.units[0],
    starts_at: '2026-06-02T08:30:00Z',
    ends_at: '2026-06-02T09:30:00Z',
    guest_email: 'g@example.com',
  };
  assert.equal(
    errorCode(await call(t.app, 'POST', '/api/v1/bookings/appointments', { token: w.merchant, body })),
    'UNIT_UNAVAILABLE',
  );
  const forced = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token: w.merchant,
    body: { ...body, override: true },
  });
  assert.equal(forced.status, 200);
  // Straight SQL cannot get round it either: an overlapping hold or live appointment is refused by the constraint.
  await assert.rejects(
    t.db.query(
      `INSERT INTO holds (store_id, unit_id, starts_at, ends_at, expires_at) VALUES ($1, $2, '2026-06-02T08:15:00Z', '2026-06-02T08:45:00Z', '2026-06-01T09:00:00Z')`,
      [w.storeId, w.units[0]],
    ),
    (err: any) => err.code === '23P01' && err.constraint === 'unit_occupancy_no_overlap',
  );
  await assert.rejects(
    t.db.query(
      `INSERT INTO appointments (store_id, unit_id, starts_at, ends_at, block, status, currency) VALUES ($1, $2, '2026-06-02T08:15:00Z', '2026-06-02T08:45:00Z', tstzrange('2026-06-02T08:15:00Z', '2026-06-02T08:45:00Z'), 'confirmed', 'GBP')`,
      [w.storeId, w.units[0]],
    ),
    (err: any) => err.code === '23P01' && err.constraint === 'unit_occupancy_no_overlap',
  );
  // Once expired (unnoticed), the merchant's booking releases it under the unit lock and says so.
  t.clock.advance(10 * 60_000);
  try {
    const late = await call(t.app, 'POST', '/api/v1/bookings/appointments', { token: w.merchant, body });
    assert.equal(late.status, 200, JSON.stringify(late.body));
    assert.deepEqual(
      (await eventsOf(t, w.storeId, 'hold.expired')).map((e) => e.id),
      [held.body.hold.id],
    );
  } finally {
    t.clock.set('2026-06-01T08:00:00Z');
  }
});
