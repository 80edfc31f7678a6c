// Odd but well-formed inputs are answered with 4xx or success, never a 5xx.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const store = await t.fx.store();
const token = await t.fx.merchantToken(store.id);
const unit = await t.fx.unit(store.id);

const no5xx = (label: string, status: number) => assert.ok(status < 500, `${label}: ${status}`);

test('diary dates at the edges of the calendar are answered without a 5xx', async () => {
  for (const [from_date, to_date] of [
    ['0001-01-01', '0001-01-02'],
    ['9999-12-31', '9999-12-31'],
    ['1970-01-01', '1970-01-01'],
    ['2024-02-29', '2024-02-29'],
  ]) {
    const res = await call(t.app, 'GET', '/api/v1/bookings/diary', {
      token,
      query: { store_id: store.id, from_date, to_date },
    });
    no5xx(`${from_date}..${to_date}`, res.status);
  }
});

test('a diary ending on 9999-12-31 is refused: its end (the next midnight) would be in year 10000', async () => {
  const res = await call(t.app, 'GET', '/api/v1/bookings/diary', {
    token,
    query: { store_id: store.id, from_date: '9999-12-31', to_date: '9999-12-31' },
  });
  assert.equal(res.status, 400);
  assert.equal(res.body.error.code, 'VALIDATION_FAILED');
  const last = await call(t.app, 'GET', '/api/v1/bookings/diary', {
    token,
    query: { store_id: store.id, from_date: '9999-12-30', to_date: '9999-12-30' },
  });
  assert.equal(last.status, 200);
  assert.equal(last.body.to, '9999-12-31T00:00:00.000Z');
});

test('search needles with NUL, quotes, backslashes and non-Latin letters are answered without a 5xx', async () => {
  for (const q of ['a\u0000b', "o'brien", 'back\\slash', 'zoë', '名前です', '\\\\', '   ']) {
    const res = await call(t.app, 'GET', '/api/v1/bookings/appointments/search', {
      token,
      query: { store_id: store.id, q },
    });
    no5xx(JSON.stringify(q), res.status);
  }
});

test('unit and time-off writes with NUL characters or extreme instants are answered without a 5xx', async () => {
  const unitRes = await call(t.app, 'POST', '/api/v1/bookings/units', {
    token,
    body: { store_id: store.id, display_name: 'A\u0000B', kind: 'staff' },
  });
  no5xx('unit name with NUL', unitRes.status);
  for (const [starts_at, ends_at, reason] of [
    ['0001-01-01T00:00:00Z', '0001-01-01T01:00:00Z', null],
    ['9999-12-31T22:00:00Z', '9999-12-31T23:00:00Z', null],
    ['2026-06-02T10:00:00Z', '2026-06-02T11:00:00Z', 'x\u0000y'],
  ]) {
    const res = await call(t.app, 'POST', '/api/v1/bookings/time-off', {
      token,
      body: { store_id: store.id, unit_id: unit.id, starts_at, ends_at, kind: 'block', reason },
    });
    no5xx(`${starts_at} ${JSON.stringify(reason)}`, res.status);
  }
  const bad = await call(t.app, 'DELETE', '/api/v1/bookings/time-off/not-a-uuid', {
    token,
    query: { store_id: store.id },
  });
  assert.equal(bad.status, 400);
});
