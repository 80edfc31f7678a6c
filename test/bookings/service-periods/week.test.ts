// The week validation table: only the seven day keys, HH:MM 24-hour values, close after open,
// an omitted day closed; a bad week is refused with the field named, on create and on update.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';

const t = await startTestApp();
const store = await t.fx.store();
const token = await t.fx.merchantToken(store.id);
const URL = '/api/v1/bookings/service-periods';

const good: Array<[string, unknown, unknown]> = [
  ['an empty week (every day closed)', {}, {}],
  ['one open day', { monday: { open: '12:00', close: '15:00' } }, { monday: { open: '12:00', close: '15:00' } }],
  [
    'the whole day, 00:00 to 23:59',
    { sunday: { open: '00:00', close: '23:59' } },
    { sunday: { open: '00:00', close: '23:59' } },
  ],
  ['a one-minute window', { friday: { open: '18:29', close: '18:30' } }, { friday: { open: '18:29', close: '18:30' } }],
  [
    'all seven days',
    Object.fromEntries(
      ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((d) => [
        d,
        { open: '17:00', close: '22:30' },
      ]),
    ),
    Object.fromEntries(
      ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((d) => [
        d,
        { open: '17:00', close: '22:30' },
      ]),
    ),
  ],
];

// [case, week, expected code, text the message must contain]
const bad: Array<[string, unknown, string, string]> = [
  ['an unknown day key', { funday: { open: '12:00', close: '15:00' } }, 'VALIDATION_FAILED', 'week.funday'],
  ['a capitalised day key', { Monday: { open: '12:00', close: '15:00' } }, 'VALIDATION_FAILED', 'week.Monday'],
  [
    'close equal to open',
    { monday: { open: '12:00', close: '12:00' } },
    'INVALID_WEEK',
    'week.monday.close must be after open',
  ],
  [
    'close before open',
    { tuesday: { open: '22:00', close: '02:00' } },
    'INVALID_WEEK',
    'week.tuesday.close must be after open',
  ],
  [
    'an hour without a leading zero',
    { monday: { open: '9:00', close: '15:00' } },
    'VALIDATION_FAILED',
    'week.monday.open',
  ],
  ['24:00', { monday: { open: '12:00', close: '24:00' } }, 'VALIDATION_FAILED', 'week.monday.close'],
  ['minute 60', { monday: { open: '12:60', close: '15:00' } }, 'VALIDATION_FAILED', 'week.monday.open'],
  ['seconds', { monday: { open: '12:00:00', close: '15:00' } }, 'VALIDATION_FAILED', 'week.monday.open'],
  ['a 12-hour time', { monday: { open: '12:00pm', close: '3:00pm' } }, 'VALIDATION_FAILED', 'week.monday.open'],
  ['a number instead of a string', { monday: { open: 1200, close: '15:00' } }, 'VALIDATION_FAILED', 'week.monday.open'],
  ['a missing close', { monday: { open: '12:00' } }, 'VALIDATION_FAILED', 'week.monday.close is required'],
  ['a missing open', { monday: { close: '15:00' } }, 'VALIDATION_FAILED', 'week.monday.open is required'],
  [
    'an extra field in a day',
    { monday: { open: '12:00', close: '15:00', closed: false } },
    'VALIDATION_FAILED',
    'week.monday.closed',
  ],
  ['a day given as null', { monday: null }, 'VALIDATION_FAILED', 'week.monday'],
  ['a day given as a string', { monday: '12:00-15:00' }, 'VALIDATION_FAILED', 'week.monday'],
  ['a week given as an array', [{ open: '12:00', close: '15:00' }], 'VALIDATION_FAILED', 'week'],
  ['a week given as null', null, 'VALIDATION_FAILED', 'week'],
];

async function periodCount(): Promise<number> {
  const res = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM service_periods WHERE store_id = $1', [
    store.id,
  ]);
  return res.rows[0].n;
}

for (const [name, week, stored] of good) {
  test(`week accepted on create: ${name}`, async () => {
    const res = await call(t.app, 'POST', URL, { token, body: { store_id: store.id, name: 'Lunch', week } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.period.week, stored);
    const row = await t.db.query('SELECT week FROM service_periods WHERE id = $1', [res.body.period.id]);
    assert.deepEqual(row.rows[0].week, stored);
  });
}

for (const [name, week, code, text] of bad) {
  test(`week refused on create: ${name}`, async () => {
    const before = await periodCount();
    const res = await call(t.app, 'POST', URL, { token, body: { store_id: store.id, name: 'Lunch', week } });
    assert.equal(res.status, 400);
    assert.equal(errorCode(res), code);
    assert.ok(res.body.error.message.includes(text), `message "${res.body.error.message}" should name ${text}`);
    assert.equal(await periodCount(), before, 'nothing is created');
  });
}

for (const [name, week, code, text] of bad) {
  test(`week refused on update, the stored week kept: ${name}`, async () => {
    const original = { wednesday: { open: '11:00', close: '14:00' } };
    const created = await call(t.app, 'POST', URL, {
      token,
      body: { store_id: store.id, name: 'Brunch', week: original },
    });
    const res = await call(t.app, 'PATCH', `${URL}/${created.body.period.id}`, {
      token,
      body: { store_id: store.id, week },
    });
    assert.equal(res.status, 400);
    assert.equal(errorCode(res), code);
    assert.ok(res.body.error.message.includes(text), `message "${res.body.error.message}" should name ${text}`);
    const row = await t.db.query('SELECT week FROM service_periods WHERE id = $1', [created.body.period.id]);
    assert.deepEqual(row.rows[0].week, original);
  });
}

test('a week sent on update replaces the whole week: omitted days become closed', async () => {
  const created = await call(t.app, 'POST', URL, {
    token,
    body: {
      store_id: store.id,
      name: 'Dinner',
      week: { monday: { open: '18:00', close: '22:00' }, tuesday: { open: '18:00', close: '22:00' } },
    },
  });
  const res = await call(t.app, 'PATCH', `${URL}/${created.body.period.id}`, {
    token,
    body: { store_id: store.id, week: { saturday: { open: '17:00', close: '23:00' } } },
  });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.period.week, { saturday: { open: '17:00', close: '23:00' } });
});

test('the week comes back in day order, Sunday first, whatever order it was sent in', async () => {
  const days = ['saturday', 'wednesday', 'monday', 'sunday', 'friday', 'thursday', 'tuesday'];
  const week = Object.fromEntries(days.map((d) => [d, { open: '10:00', close: '11:00' }]));
  const res = await call(t.app, 'POST', URL, { token, body: { store_id: store.id, name: 'Ordered', week } });
  assert.deepEqual(Object.keys(res.body.period.week), [
    'sunday',
    'monday',
    'tuesday',
    'wednesday',
    'thursday',
    'friday',
    'saturday',
  ]);
  const listed = await call(t.app, 'GET', URL, { token, query: { store_id: store.id } });
  const again = listed.body.periods.find((p: any) => p.id === res.body.period.id);
  assert.deepEqual(Object.keys(again.week), [
    'sunday',
    'monday',
    'tuesday',
    'wednesday',
    'thursday',
    'friday',
    'saturday',
  ]);
});
