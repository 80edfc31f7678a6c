import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { insertAppointment, insertArea, insertHold, insertTimeOff } from './fixtures.ts';

const t = await startTestApp({ now: '2026-03-29T12:00:00Z' });
const store = await t.fx.store({ timezone: 'Europe/London' });
const other = await t.fx.store({ name: 'Other' });
const token = await t.fx.merchantToken(store.id);
const chair = await t.fx.unit(store.id, { display_name: 'Chair', sort: 1 });
const diary = (query: Record<string, string | boolean>, tok = token) =>
  call(t.app, 'GET', '/api/v1/bookings/diary', { token: tok, query: { store_id: store.id, ...query } });
const startsOf = (column: any) => column.appointments.map((a: any) => a.starts_at);

test('spring-forward day in Europe/London is 23 hours: 00:00 GMT to 00:00 BST', async () => {
  const s = await t.fx.store({ timezone: 'Europe/London' });
  const u = await t.fx.unit(s.id);
  const tok = await t.fx.merchantToken(s.id);
  for (const [start, end] of [
    ['2026-03-28T23:30:00Z', '2026-03-29T00:00:00Z'], // 23:30 GMT on the 28th: the day before
    ['2026-03-29T00:00:00Z', '2026-03-29T00:30:00Z'], // 00:00 GMT: first minute of the day
    ['2026-03-29T22:30:00Z', '2026-03-29T23:00:00Z'], // 23:30 BST: last half hour of the day
    ['2026-03-29T23:00:00Z', '2026-03-29T23:30:00Z'], // 00:00 BST on the 30th: the next day
  ])
    await insertAppointment(t.db, { storeId: s.id, unitId: u.id, startsAt: start, endsAt: end });
  const res = await call(t.app, 'GET', '/api/v1/bookings/diary', {
    token: tok,
    query: { store_id: s.id, from_date: '2026-03-29', to_date: '2026-03-29' },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.timezone, 'Europe/London');
  assert.equal(res.body.from, '2026-03-29T00:00:00.000Z');
  assert.equal(res.body.to, '2026-03-29T23:00:00.000Z');
  assert.deepEqual(startsOf(res.body.units[0]), ['2026-03-29T00:00:00.000Z', '2026-03-29T22:30:00.000Z']);
});

test('fall-back day in Europe/London is 25 hours: 00:00 BST to 00:00 GMT', async () => {
  const s = await t.fx.store({ timezone: 'Europe/London' });
  const u = await t.fx.unit(s.id);
  const tok = await t.fx.merchantToken(s.id);
  for (const [start, end] of [
    ['2026-10-24T22:30:00Z', '2026-10-24T23:00:00Z'], // 23:30 BST on the 24th: the day before
    ['2026-10-24T23:00:00Z', '2026-10-24T23:30:00Z'], // 00:00 BST on the 25th
    ['2026-10-25T00:30:00Z', '2026-10-25T01:00:00Z'], // 01:30 BST, the first time round
    ['2026-10-25T01:30:00Z', '2026-10-25T02:00:00Z'], // 01:30 GMT, the second time round
    ['2026-10-25T23:30:00Z', '2026-10-26T00:00:00Z'], // 23:30 GMT: last half hour of the day
    ['2026-10-26T00:00:00Z', '2026-10-26T00:30:00Z'], // 00:00 GMT on the 26th: the next day
  ])
    await insertAppointment(t.db, { storeId: s.id, unitId: u.id, startsAt: start, endsAt: end });
  const res = await call(t.app, 'GET', '/api/v1/bookings/diary', {
    token: tok,
    query: { store_id: s.id, from_date: '2026-10-25', to_date: '2026-10-25' },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.from, '2026-10-24T23:00:00.000Z');
  assert.equal(res.body.to, '2026-10-26T00:00:00.000Z');
  assert.deepEqual(startsOf(res.body.units[0]), [
    '2026-10-24T23:00:00.000Z',
    '2026-10-25T00:30:00.000Z',
    '2026-10-25T01:30:00.000Z',
    '2026-10-25T23:30:00.000Z',
  ]);
});

test('a range spanning the change starts and ends at local midnight on either side', async () => {
  const res = await diary({ from_date: '2026-03-28', to_date: '2026-03-30' });
  assert.equal(res.body.from, '2026-03-28T00:00:00.000Z');
  assert.equal(res.body.to, '2026-03-30T23:00:00.000Z');
});

test('day boundaries follow the store timezone', async () => {
  const ny = await t.fx.store({ timezone: 'America/New_York', currency: 'USD' });
  const tok = await t.fx.merchantToken(ny.id);
  const res = await call(t.app, 'GET', '/api/v1/bookings/diary', {
    token: tok,
    query: { store_id: ny.id, from_date: '2026-06-01', to_date: '2026-06-02' },
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.timezone, 'America/New_York');
  assert.equal(res.body.from, '2026-06-01T04:00:00.000Z');
  assert.equal(res.body.to, '2026-06-03T04:00:00.000Z');
});

test("a diary appointment carries exactly the spec's fields, with the preferred area resolved", async () => {
  const s = await t.fx.store();
  const u = await t.fx.unit(s.id);
  const tok = await t.fx.merchantToken(s.id);
  const area = await insertArea(t.db, s.id, 'Terrace');
  const id = await insertAppointment(t.db, {
    storeId: s.id,
    unitId: u.id,
    startsAt: '2026-04-02T10:00:00Z',
    endsAt: '2026-04-02T11:00:00Z',
    status: 'checked_in',
    guestName: 'Ada',
    guestEmail: 'ada@example.com',
    guestPhone: '+447700900123',
    pricePence: 5000,
    depositPence: 1000,
    settledPence: 1500,
    paymentStatus: 'deposit_paid',
    preferredAreaId: area,
    checkedInAt: '2026-04-02T09:58:00Z',
  });
  const res = await call(t.app, 'GET', '/api/v1/bookings/diary', {
    token: tok,
    query: { store_id: s.id, from_date: '2026-04-02', to_date: '2026-04-02' },
  });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.units[0].appointments, [
    {
      id,
      service_id: null,
      customer_id: null,
      guest_name: 'Ada',
      guest_email: 'ada@example.com',
      guest_phone: '+447700900123',
      starts_at: '2026-04-02T10:00:00.000Z',
      ends_at: '2026-04-02T11:00:00.000Z',
      status: 'checked_in',
      payment_status: 'deposit_paid',
      price_pence: 5000,
      deposit_pence: 1000,
      balance_pence: 2500,
      currency: 'GBP',
      party_size: 1,
      children: 0,
      high_chairs: 0,
      is_override: false,
      preferred_area_id: area,
      preferred_area_name: 'Terrace',
      checked_in_at: '2026-04-02T09:58:00.000Z',
      completed_at: null,
      cancelled_at: null,
    },
  ]);
});

test('units are every active bookable unit by sort then name; one unit on request', async () => {
  const s = await t.fx.store();
  const tok = await t.fx.merchantToken(s.id);
  const b = await t.fx.unit(s.id, { display_name: 'Bea', sort: 2 });
  await t.fx.unit(s.id, { display_name: 'Al', sort: 2 });
  await t.fx.unit(s.id, { display_name: 'Zoe', sort: 1 });
  await t.fx.unit(s.id, { display_name: 'Gone', sort: 0, is_active: false });
  await t.fx.unit(s.id, { display_name: 'Storeroom', sort: 0, bookable: false });
  const res = await call(t.app, 'GET', '/api/v1/bookings/diary', {
    token: tok,
    query: { store_id: s.id, from_date: '2026-04-01', to_date: '2026-04-01' },
  });
  assert.deepEqual(
    res.body.units.map((c: any) => c.unit.display_name),
    ['Zoe', 'Al', 'Bea'],
  );
  assert.deepEqual(Object.keys(res.body.units[0]).sort(), ['appointments', 'holds', 'time_off', 'unit']);
  const one = await call(t.app, 'GET', '/api/v1/bookings/diary', {
    token: tok,
    query: { store_id: s.id, from_date: '2026-04-01', to_date: '2026-04-01', unit_id: b.id },
  });
  assert.deepEqual(
    one.body.units.map((c: any) => c.unit.id),
    [b.id],
  );
  const empty = await call(t.app, 'GET', '/api/v1/bookings/diary', {
    token: tok,
    query: { store_id: s.id, from_date: '2026-04-01', to_date: '2026-04-01', unit_id: '' },
  });
  assert.deepEqual(
    empty.body.units.map((c: any) => c.unit.display_name),
    ['Zoe', 'Al', 'Bea'],
    'an empty unit_id means every unit',
  );
});

test('cancelled appointments are excluded unless include_cancelled=true; no-shows are shown', async () => {
  const day = { from_date: '2026-04-03', to_date: '2026-04-03', unit_id: chair.id };
  const live = await insertAppointment(t.db, {
    storeId: store.id,
    unitId: chair.id,
    startsAt: '2026-04-03T09:00:00Z',
    endsAt: '2026-04-03T10:00:00Z',
  });
  const gone = await insertAppointment(t.db, {
    storeId: store.id,
    unitId: chair.id,
    startsAt: '2026-04-03T09:00:00Z',
    endsAt: '2026-04-03T10:00:00Z',
    status: 'cancelled',
    cancelledAt: '2026-04-01T08:00:00Z',
  });
  const noShow = await insertAppointment(t.db, {
    storeId: store.id,
    unitId: chair.id,
    startsAt: '2026-04-03T11:00:00Z',
    endsAt: '2026-04-03T12:00:00Z',
    status: 'no_show',
  });
  const without = await diary(day);
  assert.deepEqual(
    without.body.units[0].appointments.map((a: any) => a.id),
    [live, noShow],
  );
  const withCancelled = await diary({ ...day, include_cancelled: true });
  const ids = withCancelled.body.units[0].appointments.map((a: any) => a.id);
  assert.deepEqual(new Set(ids), new Set([live, gone, noShow]));
  assert.equal(
    withCancelled.body.units[0].appointments.find((a: any) => a.id === gone).cancelled_at,
    '2026-04-01T08:00:00.000Z',
  );
});

test('holds show while unexpired and unreleased; they disappear once expired', async () => {
  const s = await t.fx.store();
  const u = await t.fx.unit(s.id);
  const tok = await t.fx.merchantToken(s.id);
  const at = { storeId: s.id, unitId: u.id, startsAt: '2026-04-04T10:00:00Z', endsAt: '2026-04-04T11:00:00Z' };
  // Unreleased holds on one unit cannot overlap (unit_occupancy_no_overlap), so each has its own hour.
  const live = await insertHold(t.db, { ...at, expiresAt: '2026-03-29T12:10:00Z' });
  const open = await insertHold(t.db, {
    ...at,
    startsAt: '2026-04-04T11:00:00Z',
    endsAt: '2026-04-04T12:00:00Z',
    expiresAt: null,
  });
  await insertHold(t.db, {
    ...at,
    startsAt: '2026-04-04T12:00:00Z',
    endsAt: '2026-04-04T13:00:00Z',
    expiresAt: '2026-03-29T11:59:00Z',
  }); // already lapsed
  await insertHold(t.db, { ...at, expiresAt: '2026-03-29T13:00:00Z', releasedAt: '2026-03-29T11:00:00Z' });
  const read = () =>
    call(t.app, 'GET', '/api/v1/bookings/diary', {
      token: tok,
      query: { store_id: s.id, from_date: '2026-04-04', to_date: '2026-04-04' },
    });
  const before = await read();
  assert.deepEqual(new Set(before.body.units[0].holds.map((h: any) => h.id)), new Set([live, open]));
  assert.deepEqual(
    before.body.units[0].holds.find((h: any) => h.id === live),
    {
      id: live,
      starts_at: '2026-04-04T10:00:00.000Z',
      ends_at: '2026-04-04T11:00:00.000Z',
      expires_at: '2026-03-29T12:10:00.000Z',
    },
  );
  t.clock.advance(10 * 60_000); // now 12:10: expires_at is not after now any more
  try {
    const after = await read();
    assert.deepEqual(
      after.body.units[0].holds.map((h: any) => h.id),
      [open],
    );
  } finally {
    t.clock.set('2026-03-29T12:00:00Z');
  }
});

test('time-off overlapping the range shows on its unit only', async () => {
  const s = await t.fx.store();
  const a = await t.fx.unit(s.id, { display_name: 'A' });
  await t.fx.unit(s.id, { display_name: 'B' });
  const tok = await t.fx.merchantToken(s.id);
  const off = await insertTimeOff(t.db, {
    storeId: s.id,
    unitId: a.id,
    startsAt: '2026-04-05T22:00:00Z',
    endsAt: '2026-04-07T08:00:00Z',
    kind: 'time_off',
    reason: 'Holiday',
  });
  await insertTimeOff(t.db, {
    storeId: s.id,
    unitId: a.id,
    startsAt: '2026-04-07T12:00:00Z',
    endsAt: '2026-04-07T13:00:00Z',
    kind: 'block',
  });
  const res = await call(t.app, 'GET', '/api/v1/bookings/diary', {
    token: tok,
    query: { store_id: s.id, from_date: '2026-04-06', to_date: '2026-04-06' },
  });
  const [colA, colB] = res.body.units;
  assert.deepEqual(colA.time_off, [
    {
      id: off,
      starts_at: '2026-04-05T22:00:00.000Z',
      ends_at: '2026-04-07T08:00:00.000Z',
      kind: 'time_off',
      reason: 'Holiday',
    },
  ]);
  assert.deepEqual(colB.time_off, []);
});

test("another store's unit, or an unknown one, is 404", async () => {
  const theirs = await t.fx.unit(other.id);
  for (const unitId of [theirs.id, '00000000-0000-4000-8000-000000000000']) {
    const res = await diary({ from_date: '2026-04-01', to_date: '2026-04-01', unit_id: unitId });
    assert.equal(res.status, 404);
    assert.equal(errorCode(res), 'NOT_FOUND');
  }
});

test("another store's appointments never appear, whatever store_id says", async () => {
  const theirs = await t.fx.unit(other.id);
  await insertAppointment(t.db, {
    storeId: other.id,
    unitId: theirs.id,
    startsAt: '2026-04-08T10:00:00Z',
    endsAt: '2026-04-08T11:00:00Z',
  });
  const res = await call(t.app, 'GET', '/api/v1/bookings/diary', {
    token,
    query: { store_id: other.id, from_date: '2026-04-08', to_date: '2026-04-08' },
  });
  assert.equal(res.body.store_id, store.id);
  assert.ok(res.body.units.every((c: any) => c.unit.id !== theirs.id && c.appointments.length === 0));
});

test('dates are YYYY-MM-DD; to_date before from_date and ranges over 62 days are refused', async () => {
  for (const bad of [
    { from_date: '2026-4-01', to_date: '2026-04-01' },
    { from_date: '2026-02-30', to_date: '2026-03-01' },
    { from_date: '2026-04-01T00:00:00Z', to_date: '2026-04-01' },
  ]) {
    const res = await diary(bad);
    assert.equal(res.status, 400, JSON.stringify(bad));
    assert.equal(errorCode(res), 'VALIDATION_FAILED');
  }
  const backwards = await diary({ from_date: '2026-04-02', to_date: '2026-04-01' });
  assert.equal(backwards.status, 400);
  assert.equal(errorCode(backwards), 'INVALID_TIME_RANGE');
  const longest = await diary({ from_date: '2026-01-01', to_date: '2026-03-03' }); // 62 days
  assert.equal(longest.status, 200);
  const tooLong = await diary({ from_date: '2026-01-01', to_date: '2026-03-04' }); // 63 days
  assert.equal(tooLong.status, 400);
  assert.equal(errorCode(tooLong), 'RANGE_TOO_LONG');
});

test('the diary needs a merchant token', async () => {
  const customer = await t.fx.customer();
  const res = await diary({ from_date: '2026-04-01', to_date: '2026-04-01' }, await t.fx.customerToken(customer.id));
  assert.equal(res.status, 403);
  assert.equal(errorCode(res), 'WRONG_TOKEN_KIND');
});
