// The availability search: the spec's rules, each on a small store (Europe/London unless stated).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { ALL_WEEK, hold, localTimesOf, search, setService, shop } from './helpers.ts';

// Monday 2026-06-01 09:00 BST.
const t = await startTestApp({ now: '2026-06-01T08:00:00Z' });

const quarterHours = (from: string, to: string) => {
  const out: string[] = [];
  for (
    let m = Number(from.slice(0, 2)) * 60 + Number(from.slice(3));
    m <= Number(to.slice(0, 2)) * 60 + Number(to.slice(3));
    m += 15
  ) {
    out.push(`${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);
  }
  return out;
};

test('split shifts and exceptions: each interval offers its own starts; an empty exception closes the day, another replaces it', async () => {
  const w = await shop({
    t,
    week: ALL_WEEK([
      { open: '09:00', close: '12:00' },
      { open: '13:00', close: '15:00' },
    ]),
  });
  await call(t.app, 'PUT', `/api/v1/bookings/units/${w.units[0]}/hours`, {
    token: w.merchant,
    body: {
      week: ALL_WEEK([
        { open: '13:00', close: '15:00' },
        { open: '09:00', close: '12:00' },
      ]),
      exceptions: [
        { date: '2026-06-03', intervals: [] },
        { date: '2026-06-04', intervals: [{ open: '10:00', close: '11:00' }] },
      ],
    },
  });
  const res = await search(w, { from_date: '2026-06-02', to_date: '2026-06-04' });
  assert.deepEqual(
    res.body.days.map((d: any) => d.date),
    ['2026-06-02', '2026-06-03', '2026-06-04'],
  );
  assert.deepEqual(localTimesOf(res, '2026-06-02'), [
    ...quarterHours('09:00', '11:00'),
    ...quarterHours('13:00', '14:00'),
  ]);
  assert.deepEqual(localTimesOf(res, '2026-06-03'), []);
  assert.deepEqual(localTimesOf(res, '2026-06-04'), ['10:00']);
  const first = res.body.days[0].slots[0];
  assert.deepEqual(first, {
    starts_at: '2026-06-02T08:00:00.000Z',
    ends_at: '2026-06-02T09:00:00.000Z',
    local_time: '09:00',
    unit_ids: [w.units[0]],
  });
  assert.equal(res.body.duration_min, 60);
  assert.equal(res.body.timezone, 'Europe/London');
});

test('buffers and processing time widen the occupied block, not the told end; the block must fit the hours and miss bookings', async () => {
  const w = await shop({
    t,
    week: ALL_WEEK([{ open: '09:00', close: '12:00' }]),
    service: { duration_min: 30, buffer_before_min: 15, processing_min: 15, buffer_after_min: 15 },
  });
  // A merchant booking 10:30-11:00 local with no buffers.
  const booked = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token: w.merchant,
    body: {
      store_id: w.storeId,
      unit_id: w.units[0],
      starts_at: '2026-06-02T09:30:00Z',
      ends_at: '2026-06-02T10:00:00Z',
      guest_email: 'g@example.com',
    },
  });
  assert.equal(booked.status, 200);
  const res = await search(w, { from_date: '2026-06-02', to_date: '2026-06-02' });
  // Block [s-15, s+60): the first start is 09:15 (set-up inside the hours); 09:30's block ends as the booking starts.
  assert.deepEqual(
    res.body.days[0].slots.map((s: any) => [s.local_time, s.ends_at]),
    [
      ['09:15', '2026-06-02T08:45:00.000Z'],
      ['09:30', '2026-06-02T09:00:00.000Z'],
    ],
  );
});

test('a live hold blocks its whole block, buffers included: a start whose block would meet them is not offered, and what is offered can be held', async () => {
  const w = await shop({
    t,
    week: ALL_WEEK([{ open: '09:00', close: '12:00' }]),
    service: { duration_min: 30, buffer_after_min: 15 },
  });
  // A customer holds 10:00 local: told 10:00-10:30, block 10:00-10:45 (the clean-up buffer after).
  const first = await hold(w, { starts_at: '2026-06-02T09:00:00Z' });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const res = await search(w, { from_date: '2026-06-02', to_date: '2026-06-02' });
  // 10:30 would need 10:30-11:15, inside the hold's clean-up: not offered; 10:45 is.
  assert.deepEqual(localTimesOf(res, '2026-06-02'), ['09:00', '09:15', '10:45', '11:00', '11:15']);
  for (const s of res.body.days[0].slots) {
    const h = await hold(w, { starts_at: s.starts_at });
    assert.equal(h.status, 200, `offered ${s.local_time} refused: ${JSON.stringify(h.body)}`);
    await call(t.app, 'DELETE', `/api/v1/bookings/holds/${h.body.hold.id}`, { token: w.customer });
  }
});

test('a variant and add-ons change the duration searched for', async () => {
  const w = await shop({ t, week: ALL_WEEK([{ open: '09:00', close: '11:00' }]), service: { duration_min: 30 } });
  const v = await t.db.query<{ id: string }>(
    `INSERT INTO service_variants (store_id, service_id, name, duration_min) VALUES ($1, $2, 'Long', 60) RETURNING id`,
    [w.storeId, w.serviceId],
  );
  const a = await t.db.query<{ id: string }>(
    `INSERT INTO service_addons (store_id, service_id, name, extra_min) VALUES ($1, $2, 'Mask', 30), ($1, $2, 'Rinse', 0) RETURNING id`,
    [w.storeId, w.serviceId],
  );
  const plain = await search(w, { from_date: '2026-06-02', to_date: '2026-06-02' });
  assert.deepEqual(localTimesOf(plain, '2026-06-02'), quarterHours('09:00', '10:30'));
  const long = await search(w, {
    from_date: '2026-06-02',
    to_date: '2026-06-02',
    variant_id: v.rows[0].id,
    addon_ids: a.rows.map((r) => r.id).join(','),
  });
  assert.equal(long.body.duration_min, 90);
  assert.deepEqual(localTimesOf(long, '2026-06-02'), ['09:00', '09:15', '09:30']);
  assert.equal(long.body.days[0].slots[0].ends_at, '2026-06-02T09:30:00.000Z');
  const unknown = await search(w, {
    from_date: '2026-06-02',
    to_date: '2026-06-02',
    addon_ids: '6f1c2d3e-0000-4000-8000-000000000000',
  });
  assert.equal(unknown.status, 404);
  assert.equal(errorCode(await search(w, { addon_ids: 'nope' })), 'VALIDATION_FAILED');
});

test('minimum notice and the horizon bound the starts', async () => {
  const w = await shop({ t, settings: { min_notice_min: 120, booking_horizon_days: 2 } });
  const res = await search(w, { from_date: '2026-06-01', to_date: '2026-06-04' });
  // Now is 09:00 local: the first start is 11:00 today; the horizon ends at 09:00 local on 06-03.
  assert.equal(localTimesOf(res, '2026-06-01')[0], '11:00');
  assert.deepEqual(localTimesOf(res, '2026-06-02'), quarterHours('09:00', '16:00'));
  assert.deepEqual(localTimesOf(res, '2026-06-03'), []);
  assert.deepEqual(localTimesOf(res, '2026-06-04'), []);
  const late = await hold(w, { starts_at: '2026-06-03T08:00:00Z' });
  assert.equal(errorCode(late), 'SLOT_UNAVAILABLE');
  const soon = await hold(w, { starts_at: '2026-06-01T09:45:00Z' });
  assert.equal(errorCode(soon), 'SLOT_UNAVAILABLE');
});

test("a restaurant's service periods bound the first and the last seating (close minus last_seating_offset_min)", async () => {
  const w = await shop({ t });
  await t.db.query(
    `INSERT INTO service_periods (store_id, name, week, last_seating_offset_min) VALUES ($1, 'Lunch', '{"tuesday": {"open": "12:00", "close": "15:00"}}', 60)`,
    [w.storeId],
  );
  const res = await search(w, { from_date: '2026-06-02', to_date: '2026-06-03' });
  assert.deepEqual(localTimesOf(res, '2026-06-02'), quarterHours('12:00', '14:00'));
  assert.deepEqual(localTimesOf(res, '2026-06-03'), [], 'no period on Wednesday: no seating');
});

test('party_size must fit the service; a range over 90 days is refused; a unit without hours is not offered', async () => {
  const w = await shop({ t, service: { party_min: 2, party_max: 4 } });
  assert.equal(errorCode(await search(w, { party_size: 1 })), 'PARTY_SIZE_OUT_OF_RANGE');
  assert.equal(errorCode(await search(w, { party_size: 5 })), 'PARTY_SIZE_OUT_OF_RANGE');
  assert.equal(
    (await search(w, { party_size: 3, from_date: '2026-06-02', to_date: '2026-06-02' })).body.days[0].slots.length,
    29,
  );
  assert.equal(
    errorCode(await search(w, { party_size: 2, from_date: '2026-06-01', to_date: '2026-08-30' })),
    'RANGE_TOO_LONG',
  );
  assert.equal(
    (await search(w, { party_size: 2, from_date: '2026-06-01', to_date: '2026-08-29' })).body.days.length,
    90,
  );
  const bare = await t.fx.unit(w.storeId, { display_name: 'No hours' });
  const res = await search(w, { party_size: 2, from_date: '2026-06-02', to_date: '2026-06-02' }, w.merchant);
  assert.ok(res.body.days[0].slots.every((s: any) => !s.unit_ids.includes(bare.id)));
  // Staff can still book it.
  const staff = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token: w.merchant,
    body: {
      store_id: w.storeId,
      unit_id: bare.id,
      starts_at: '2026-06-02T10:00:00Z',
      ends_at: '2026-06-02T11:00:00Z',
      guest_email: 'g@example.com',
    },
  });
  assert.equal(staff.status, 200);
});

test('appointments, unexpired holds and time-off block; expired holds and cancelled appointments do not', async () => {
  const w = await shop({ t, week: ALL_WEEK([{ open: '09:00', close: '13:00' }]) });
  const u = w.units[0];
  await t.db.query(
    `INSERT INTO holds (store_id, unit_id, starts_at, ends_at, expires_at) VALUES
    ($1, $2, '2026-06-02T08:00:00Z', '2026-06-02T09:00:00Z', '2026-06-01T08:05:00Z'),
    ($1, $2, '2026-06-02T09:00:00Z', '2026-06-02T10:00:00Z', '2026-06-01T07:59:00Z')`,
    [w.storeId, u],
  );
  await t.db.query(
    `INSERT INTO time_off (store_id, unit_id, starts_at, ends_at, kind) VALUES ($1, $2, '2026-06-02T10:00:00Z', '2026-06-02T11:00:00Z', 'block')`,
    [w.storeId, u],
  );
  const cancelled = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token: w.merchant,
    body: {
      store_id: w.storeId,
      unit_id: u,
      starts_at: '2026-06-02T11:00:00Z',
      ends_at: '2026-06-02T12:00:00Z',
      guest_email: 'g@example.com',
    },
  });
  await call(t.app, 'POST', '/api/v1/bookings/appointments/cancel', {
    token: w.merchant,
    body: { store_id: w.storeId, appointment_id: cancelled.body.appointment.id },
  });
  const res = await search(w, { from_date: '2026-06-02', to_date: '2026-06-02' });
  // 09:00-10:00 local is held (live); 10:00-11:00 local free (its hold lapsed); 11:00-12:00 local is time-off.
  assert.deepEqual(localTimesOf(res, '2026-06-02'), ['10:00', '12:00']);
});

test('the merchant sees every active bookable unit and active service; a customer only online ones', async () => {
  const w = await shop({ t, units: 2 });
  await t.db.query('UPDATE units SET online_bookable = false WHERE id = $1', [w.units[1]]);
  const asMerchant = await search(w, { from_date: '2026-06-02', to_date: '2026-06-02' }, w.merchant);
  const asCustomer = await search(w, { from_date: '2026-06-02', to_date: '2026-06-02' });
  assert.deepEqual(asMerchant.body.days[0].slots[0].unit_ids, w.units);
  assert.deepEqual(asCustomer.body.days[0].slots[0].unit_ids, [w.units[0]]);
  // Another store's id in the query: the merchant's own store wins.
  const other = await t.fx.store();
  assert.equal(
    (await search(w, { store_id: other.id, from_date: '2026-06-02', to_date: '2026-06-02' }, w.merchant)).body.store_id,
    w.storeId,
  );
  await setService(t, w.serviceId, { online_visible: false });
  assert.equal((await search(w, {})).status, 404);
  assert.equal((await search(w, {}, w.merchant)).status, 200);
  assert.equal(errorCode(await hold(w, { starts_at: '2026-06-02T08:00:00Z' })), 'NOT_FOUND');
});

test('a store that blocked the customer offers them nothing, and refuses their hold', async () => {
  const w = await shop({ t });
  await t.db.query(
    `INSERT INTO store_customers (store_id, customer_id, blocked, blocked_at) VALUES ($1, $2, true, now())`,
    [w.storeId, w.customerId],
  );
  const res = await search(w, { from_date: '2026-06-02', to_date: '2026-06-03' });
  assert.equal(res.status, 200);
  assert.deepEqual(
    res.body.days.map((d: any) => d.slots.length),
    [0, 0],
  );
  assert.equal(errorCode(await hold(w, { starts_at: '2026-06-02T08:00:00Z' })), 'CUSTOMER_BLOCKED');
  assert.ok(
    (await search(w, { from_date: '2026-06-02', to_date: '2026-06-02' }, w.merchant)).body.days[0].slots.length > 0,
  );
});

test('tokens: a customer needs store_id; no token is 401; customer:read may search but not hold', async () => {
  const w = await shop({ t });
  assert.equal(
    errorCode(
      await call(t.app, 'GET', '/api/v1/bookings/availability', {
        token: w.customer,
        query: { service_id: w.serviceId },
      }),
    ),
    'VALIDATION_FAILED',
  );
  assert.equal(
    (await call(t.app, 'GET', '/api/v1/bookings/availability', { query: { service_id: w.serviceId } })).status,
    401,
  );
  const readOnly = await t.fx.customerToken(w.customerId, ['customer:read']);
  assert.equal((await search(w, {}, readOnly)).status, 200);
  assert.equal(errorCode(await hold(w, { starts_at: '2026-06-02T08:00:00Z' }, readOnly)), 'INSUFFICIENT_SCOPE');
});
