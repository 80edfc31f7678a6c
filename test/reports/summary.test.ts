// The summary report against a small shop whose figures are worked out by hand below. London,
// 28-30 March 2026: the clocks go forward at 01:00 on Sunday 29 (GMT to BST), so that day is 23 hours.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call, errorCode } from '../support/http.ts';

const t = await startTestApp({ now: '2026-04-01T09:00:00Z' });
const { app, db, fx } = t;

const store = await fx.store({ name: 'Looking Back', timezone: 'Europe/London' });
const token = await fx.merchantToken(store.id, { scopes: ['merchant:read'] });
const ana = await fx.unit(store.id, { display_name: 'Ana' });
const ben = await fx.unit(store.id, { display_name: 'Ben' });
const cut = await fx.service(store.id, { name: 'Cut' });
const [c1, c2, c3] = [
  await fx.customer({ name: 'C1' }),
  await fx.customer({ name: 'C2' }),
  await fx.customer({ name: 'C3' }),
];

// Opening hours. Ana: Saturday 09:00-17:00 (480 min), Sunday 00:00-04:00 (on the 29th 00:00 GMT to
// 04:00 BST: 180 min, not 240), Monday 09:00-17:00 less an hour's time-off (420). Ben: Saturday
// 10:00-14:00 (240), Monday 09:00-17:00 but closed on the 30th by an exception (0).
await db.query(
  `INSERT INTO unit_hours (store_id, unit_id, weekday, opens, closes) VALUES
     ($1, $2, 6, '09:00', '17:00'), ($1, $2, 0, '00:00', '04:00'), ($1, $2, 1, '09:00', '17:00'),
     ($1, $3, 6, '10:00', '14:00'), ($1, $3, 1, '09:00', '17:00')`,
  [store.id, ana.id, ben.id],
);
await db.query(`INSERT INTO unit_hours_exceptions (store_id, unit_id, on_date) VALUES ($1, $2, '2026-03-30')`, [
  store.id,
  ben.id,
]);
await db.query(
  `INSERT INTO time_off (store_id, unit_id, starts_at, ends_at, kind) VALUES ($1, $2, '2026-03-30T11:00:00Z', '2026-03-30T12:00:00Z', 'time_off')`,
  [store.id, ana.id],
);

async function appt(a: {
  unit: string;
  start: string;
  end: string;
  customer?: string;
  service?: string;
  status: string;
  price: number;
  settled?: number;
  deposit?: number;
  payment?: string;
  by?: string;
}) {
  await db.query(
    `INSERT INTO appointments (store_id, unit_id, service_id, customer_id, guest_name, starts_at, ends_at, block, status, payment_status,
       price_pence, deposit_pence, settled_pence, currency, cancelled_by)
     VALUES ($1, $2, $3, $4, CASE WHEN $4::uuid IS NULL THEN 'Guest' END, $5, $6, tstzrange($5, $6), $7, $8, $9, $10, $11, 'GBP', $12)`,
    [
      store.id,
      a.unit,
      a.service ?? null,
      a.customer ?? null,
      a.start,
      a.end,
      a.status,
      a.payment ?? 'none',
      a.price,
      a.deposit ?? 0,
      a.settled ?? 0,
      a.by ?? null,
    ],
  );
}
// #7, before the range: C3's first visit.
await appt({
  unit: ana.id,
  start: '2026-03-27T10:00:00Z',
  end: '2026-03-27T11:00:00Z',
  customer: c3.id,
  status: 'completed',
  price: 3000,
});
// #1 Sat 10:00 GMT, C1's first, Cut, completed and paid.
await appt({
  unit: ana.id,
  start: '2026-03-28T10:00:00Z',
  end: '2026-03-28T11:00:00Z',
  customer: c1.id,
  service: cut.id,
  status: 'completed',
  price: 3000,
  settled: 3000,
  payment: 'paid',
});
// #4 Sat 11:00, C3, cancelled by the customer.
await appt({
  unit: ben.id,
  start: '2026-03-28T11:00:00Z',
  end: '2026-03-28T11:45:00Z',
  customer: c3.id,
  status: 'cancelled',
  price: 2500,
  by: 'customer',
});
// #5 Sat 12:00, a guest, cancelled by the shop.
await appt({
  unit: ben.id,
  start: '2026-03-28T12:00:00Z',
  end: '2026-03-28T12:30:00Z',
  status: 'cancelled',
  price: 1000,
  by: 'merchant',
});
// #6 Sat 13:00, C2's first, completed with only its deposit taken.
await appt({
  unit: ben.id,
  start: '2026-03-28T13:00:00Z',
  end: '2026-03-28T14:00:00Z',
  customer: c2.id,
  status: 'completed',
  price: 4000,
  deposit: 500,
  payment: 'deposit_paid',
});
// #2 Sun 03:00 BST (02:00Z), C2 again, a no-show.
await appt({
  unit: ana.id,
  start: '2026-03-29T02:00:00Z',
  end: '2026-03-29T02:30:00Z',
  customer: c2.id,
  status: 'no_show',
  price: 2000,
});
// #8 Mon 00:30 BST: still Sunday in UTC, Monday in London.
await appt({
  unit: ana.id,
  start: '2026-03-29T23:30:00Z',
  end: '2026-03-30T00:00:00Z',
  status: 'confirmed',
  price: 1500,
});
// #3 Mon 09:00 BST, C1 returning, Cut, checked in.
await appt({
  unit: ana.id,
  start: '2026-03-30T08:00:00Z',
  end: '2026-03-30T09:00:00Z',
  customer: c1.id,
  service: cut.id,
  status: 'checked_in',
  price: 3000,
});
// #9 Tue 00:30 BST: after the range (Monday in UTC).
await appt({
  unit: ana.id,
  start: '2026-03-30T23:30:00Z',
  end: '2026-03-31T00:00:00Z',
  status: 'confirmed',
  price: 9999,
});

const report = (query: Record<string, string>, headers: Record<string, string> = {}) =>
  call(app, 'GET', '/api/v1/reports/summary', {
    token,
    query: { store_id: store.id, from: '2026-03-28', to: '2026-03-30', ...query },
    headers,
  });

const zero = {
  appointments: 0,
  completed: 0,
  checked_in: 0,
  cancelled: 0,
  cancelled_by_customer: 0,
  cancelled_by_shop: 0,
  no_show: 0,
  no_show_rate: 0,
  booked_minutes: 0,
  revenue_booked_pence: 0,
  revenue_settled_pence: 0,
  currency: 'GBP',
  new_customers: 0,
  returning_customers: 0,
};

test('by unit: counts, no-show rate, utilisation over opening hours less time-off, revenue and customers', async () => {
  const res = await report({ group_by: 'unit' });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const byKey = Object.fromEntries(res.body.groups.map((g: any) => [g.key, g]));
  assert.deepEqual(byKey[ana.id], {
    ...zero,
    key: ana.id,
    label: 'Ana',
    appointments: 4,
    completed: 1,
    checked_in: 1,
    no_show: 1,
    no_show_rate: 0.3333,
    booked_minutes: 180,
    working_minutes: 1080,
    utilisation: 0.1667,
    revenue_booked_pence: 9500,
    revenue_settled_pence: 3000,
    new_customers: 1,
    returning_customers: 1,
  });
  assert.deepEqual(byKey[ben.id], {
    ...zero,
    key: ben.id,
    label: 'Ben',
    appointments: 3,
    completed: 1,
    cancelled: 2,
    cancelled_by_customer: 1,
    cancelled_by_shop: 1,
    booked_minutes: 60,
    working_minutes: 240,
    utilisation: 0.25,
    revenue_booked_pence: 4000,
    revenue_settled_pence: 500,
    new_customers: 1,
  });
  assert.equal(res.body.groups.length, 2);
  assert.equal(res.body.timezone, 'Europe/London');
});

test("by day: the store's local days, the clock-change day 23 hours long", async () => {
  const res = await report({ group_by: 'day' });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.groups, [
    {
      ...zero,
      key: '2026-03-28',
      label: null,
      appointments: 4,
      completed: 2,
      cancelled: 2,
      cancelled_by_customer: 1,
      cancelled_by_shop: 1,
      booked_minutes: 120,
      working_minutes: 720,
      utilisation: 0.1667,
      revenue_booked_pence: 7000,
      revenue_settled_pence: 3500,
      new_customers: 2,
    },
    {
      ...zero,
      key: '2026-03-29',
      label: null,
      appointments: 1,
      no_show: 1,
      no_show_rate: 1,
      booked_minutes: 30,
      working_minutes: 180,
      utilisation: 0.1667,
      revenue_booked_pence: 2000,
      returning_customers: 1,
    },
    {
      ...zero,
      key: '2026-03-30',
      label: null,
      appointments: 2,
      checked_in: 1,
      booked_minutes: 90,
      working_minutes: 420,
      utilisation: 0.2143,
      revenue_booked_pence: 4500,
      returning_customers: 1,
    },
  ]);
});

test('by service: no working time, so utilisation is null; appointments without a service are the null key', async () => {
  const res = await report({ group_by: 'service' });
  assert.deepEqual(res.body.groups, [
    {
      ...zero,
      key: cut.id,
      label: 'Cut',
      appointments: 2,
      completed: 1,
      checked_in: 1,
      booked_minutes: 120,
      working_minutes: null,
      utilisation: null,
      revenue_booked_pence: 6000,
      revenue_settled_pence: 3000,
      new_customers: 1,
    },
    {
      ...zero,
      key: null,
      label: null,
      appointments: 5,
      completed: 1,
      cancelled: 2,
      cancelled_by_customer: 1,
      cancelled_by_shop: 1,
      no_show: 1,
      no_show_rate: 0.5,
      booked_minutes: 120,
      working_minutes: null,
      utilisation: null,
      revenue_booked_pence: 7500,
      revenue_settled_pence: 500,
      new_customers: 1,
    },
  ]);
});

test('Accept: text/csv answers the same groups as CSV', async () => {
  const res = await report({ group_by: 'day' }, { accept: 'text/csv' });
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /^text\/csv/);
  const lines = String(res.body).trimEnd().split('\r\n');
  assert.equal(
    lines[0],
    'key,label,appointments,completed,checked_in,cancelled,cancelled_by_customer,cancelled_by_shop,no_show,no_show_rate,booked_minutes,working_minutes,utilisation,revenue_booked_pence,revenue_settled_pence,currency,new_customers,returning_customers',
  );
  assert.deepEqual(lines.slice(1), [
    '2026-03-28,,4,2,0,2,1,1,0,0,120,720,0.1667,7000,3500,GBP,2,0',
    '2026-03-29,,1,0,0,0,0,0,1,1,30,180,0.1667,2000,0,GBP,0,1',
    '2026-03-30,,2,0,1,0,0,0,0,0,90,420,0.2143,4500,0,GBP,0,1',
  ]);
});

test('a range over 366 days, to before from, or a date that is no date answers 400 and the envelope', async () => {
  for (const [query, code] of [
    [{ from: '2026-01-01', to: '2027-01-02' }, 'RANGE_TOO_LONG'],
    [{ from: '2026-03-30', to: '2026-03-28' }, 'INVALID_TIME_RANGE'],
    [{ from: '2026-02-30', to: '2026-03-28' }, 'VALIDATION_FAILED'],
    [{ group_by: 'week' }, 'VALIDATION_FAILED'],
  ] as const) {
    const res = await report(query as Record<string, string>);
    assert.equal(res.status, 400, JSON.stringify(query));
    assert.equal(errorCode(res), code);
  }
  // 366 days (a leap year's worth) is allowed.
  assert.equal((await report({ from: '2027-01-01', to: '2028-01-01' })).status, 200);
});

test('a cancellation through the API records who cancelled it, for the report', async () => {
  const write = await fx.merchantToken(store.id);
  await appt({
    unit: ben.id,
    start: '2026-04-04T10:00:00Z',
    end: '2026-04-04T11:00:00Z',
    status: 'confirmed',
    price: 1000,
  });
  const id = (
    await db.query(`SELECT id FROM appointments WHERE store_id = $1 AND starts_at = '2026-04-04T10:00:00Z'`, [store.id])
  ).rows[0].id;
  const res = await call(app, 'POST', '/api/v1/bookings/appointments/cancel', {
    token: write,
    body: { store_id: store.id, appointment_id: id },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(
    (await db.query('SELECT cancelled_by FROM appointments WHERE id = $1', [id])).rows[0].cancelled_by,
    'merchant',
  );
  const day = await report({ from: '2026-04-04', to: '2026-04-04' });
  assert.deepEqual([day.body.groups[0].cancelled, day.body.groups[0].cancelled_by_shop], [1, 1]);
});
