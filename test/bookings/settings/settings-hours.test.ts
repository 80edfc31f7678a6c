// Working hours and the online booking settings: what is stored, what is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';

const t = await startTestApp({ now: '2026-06-01T08:00:00Z' });
const s = await t.fx.store();
const unit = await t.fx.unit(s.id);
const token = await t.fx.merchantToken(s.id);
const HOURS = `/api/v1/bookings/units/${unit.id}/hours`;
const SETTINGS = '/api/v1/bookings/settings';
const EMPTY_WEEK = { sunday: [], monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [] };

test('hours: unset at first; PUT replaces them and GET reads them back, split shifts sorted, exceptions by date', async () => {
  assert.deepEqual((await call(t.app, 'GET', HOURS, { token })).body, {
    unit_id: unit.id,
    hours_set: false,
    week: EMPTY_WEEK,
    exceptions: [],
  });
  const put = await call(t.app, 'PUT', HOURS, {
    token,
    body: {
      week: {
        monday: [
          { open: '13:00', close: '17:30' },
          { open: '09:00', close: '12:00' },
        ],
        saturday: [{ open: '10:00', close: '24:00' }],
      },
      exceptions: [
        { date: '2026-12-25', intervals: [] },
        { date: '2026-12-24', intervals: [{ open: '09:00', close: '13:00' }] },
      ],
    },
  });
  const expected = {
    unit_id: unit.id,
    hours_set: true,
    week: {
      ...EMPTY_WEEK,
      monday: [
        { open: '09:00', close: '12:00' },
        { open: '13:00', close: '17:30' },
      ],
      saturday: [{ open: '10:00', close: '24:00' }],
    },
    exceptions: [
      { date: '2026-12-24', intervals: [{ open: '09:00', close: '13:00' }] },
      { date: '2026-12-25', intervals: [] },
    ],
  };
  assert.deepEqual(put.body, expected);
  assert.deepEqual((await call(t.app, 'GET', HOURS, { token })).body, expected);
});

test('hours: backwards, overlapping, malformed or repeated entries are refused with a clear error and change nothing', async () => {
  const before = (await call(t.app, 'GET', HOURS, { token })).body;
  const cases: Array<[unknown, string, RegExp]> = [
    [
      { week: { monday: [{ open: '12:00', close: '09:00' }] } },
      'INVALID_HOURS',
      /week\.monday: 12:00-09:00 must close after it opens/,
    ],
    [
      {
        week: {
          monday: [
            { open: '09:00', close: '13:00' },
            { open: '12:00', close: '17:00' },
          ],
        },
      },
      'INVALID_HOURS',
      /overlap/,
    ],
    [
      {
        week: {},
        exceptions: [
          { date: '2026-12-25', intervals: [] },
          { date: '2026-12-25', intervals: [] },
        ],
      },
      'INVALID_HOURS',
      /listed twice/,
    ],
    [{ week: { monday: [{ open: '9:00', close: '12:00' }] } }, 'VALIDATION_FAILED', /open/],
    [{ week: { funday: [] } }, 'VALIDATION_FAILED', /funday|additional/],
  ];
  for (const [body, code, message] of cases) {
    const res = await call(t.app, 'PUT', HOURS, { token, body });
    assert.equal(errorCode(res), code, JSON.stringify(body));
    assert.match(res.body.error.message, message);
  }
  assert.deepEqual((await call(t.app, 'GET', HOURS, { token })).body, before);
  const other = await t.fx.store();
  const otherToken = await t.fx.merchantToken(other.id);
  assert.equal((await call(t.app, 'GET', HOURS, { token: otherToken })).status, 404);
  assert.equal((await call(t.app, 'PUT', HOURS, { token: otherToken, body: { week: {} } })).status, 404);
});

test('settings: defaults, a PATCH of some fields, bounds and origins checked; the operator surface edits the same fields', async () => {
  const read = await call(t.app, 'GET', SETTINGS, { token, query: { store_id: s.id } });
  assert.deepEqual(read.body, {
    settings: {
      store_id: s.id,
      timezone: 'Europe/London',
      slot_step_min: 15,
      min_notice_min: 60,
      booking_horizon_days: 90,
      hold_minutes: 10,
      deposit_due_minutes: 30,
      reminder_lead_hours: 24,
      cancellation_window_min: 0,
      cors_origins: [],
      booking_page_slug: null,
      booking_page_enabled: false,
      calendar_feed_contacts: false,
      address: null,
      phone: null,
      website: null,
      about: null,
    },
  });
  const patched = await call(t.app, 'PATCH', SETTINGS, {
    token,
    body: {
      store_id: s.id,
      slot_step_min: 30,
      reminder_lead_hours: 48,
      cors_origins: ['https://Shop.Example/', 'https://shop.example'],
    },
  });
  assert.deepEqual(
    [
      patched.body.settings.slot_step_min,
      patched.body.settings.reminder_lead_hours,
      patched.body.settings.cors_origins,
      patched.body.settings.hold_minutes,
    ],
    [30, 48, ['https://shop.example'], 10],
  );
  assert.equal(
    errorCode(await call(t.app, 'PATCH', SETTINGS, { token, body: { store_id: s.id, slot_step_min: 2 } })),
    'VALIDATION_FAILED',
  );
  assert.equal(
    errorCode(await call(t.app, 'PATCH', SETTINGS, { token, body: { store_id: s.id, cors_origins: ['*'] } })),
    'INVALID_ORIGIN',
  );
  assert.equal(
    errorCode(
      await call(t.app, 'PATCH', SETTINGS, {
        token,
        body: { store_id: s.id, cors_origins: ['https://shop.example/path'] },
      }),
    ),
    'INVALID_ORIGIN',
  );
  assert.equal(
    (await call(t.app, 'GET', SETTINGS, { token, query: { store_id: s.id } })).body.settings.slot_step_min,
    30,
  );
  const admin = await call(t.app, 'PATCH', `/admin/v1/stores/${s.id}`, {
    token: ADMIN_TOKEN,
    body: { hold_minutes: 15, cors_origins: ['http://localhost:5173'] },
  });
  assert.equal(admin.status, 200, JSON.stringify(admin.body));
  assert.deepEqual([admin.body.store.hold_minutes, admin.body.store.cors_origins], [15, ['http://localhost:5173']]);
  assert.equal(
    errorCode(
      await call(t.app, 'PATCH', `/admin/v1/stores/${s.id}`, { token: ADMIN_TOKEN, body: { cors_origins: ['nope'] } }),
    ),
    'INVALID_ORIGIN',
  );
  assert.equal(
    (await call(t.app, 'GET', SETTINGS, { token, query: { store_id: s.id } })).body.settings.hold_minutes,
    15,
  );
  const customer = await t.fx.customerToken((await t.fx.customer()).id);
  assert.equal((await call(t.app, 'GET', SETTINGS, { token: customer, query: { store_id: s.id } })).status, 403);
});
