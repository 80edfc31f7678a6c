// Every operation with another store's appointment or unit id reads as missing: 404, nothing changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorCode } from '../../support/http.ts';
import { booked, count, post, row, world, type World } from './helpers.ts';

const mine = await world({ now: '2026-06-01T09:00:00Z' });
const other = await mine.t.fx.store({ name: 'Rival Salon' });
const otherUnit = await mine.t.fx.unit(other.id);
const theirs: World = {
  t: mine.t,
  storeId: other.id,
  unitId: otherUnit.id,
  token: await mine.t.fx.merchantToken(other.id),
};

test("another store's appointment is 404 NOT_FOUND for cancel, check-in, complete, no-show, reschedule and settle", async () => {
  const id = await booked(mine, {
    price_pence: 3000,
    starts_at: '2026-05-31T10:00:00Z',
    ends_at: '2026-05-31T11:00:00Z',
  });
  const before = await row(mine, id);
  const audits = await count(mine, 'SELECT count(*) AS n FROM audit_log WHERE entity_id = $1', [id]);
  const calls: Array<[string, Record<string, unknown>]> = [
    ['cancel', { appointment_id: id, reason: 'x' }],
    ['check-in', { appointment_id: id }],
    ['complete', { appointment_id: id }],
    ['no-show', { appointment_id: id }],
    [
      'reschedule',
      { appointment_id: id, unit_id: otherUnit.id, starts_at: '2026-06-03T10:00:00Z', ends_at: '2026-06-03T11:00:00Z' },
    ],
    ['settle', { appointment_id: id, method: 'cash' }],
  ];
  for (const [action, body] of calls) {
    // Naming the owning store in the body changes nothing: the token's store is the acting store.
    for (const storeId of [other.id, mine.storeId]) {
      const res = await post(theirs, action, { ...body, store_id: storeId });
      assert.equal(res.status, 404, `${action}: ${JSON.stringify(res.body)}`);
      assert.equal(errorCode(res), 'NOT_FOUND');
    }
  }
  assert.deepEqual(await row(mine, id), before);
  assert.equal(await count(mine, 'SELECT count(*) AS n FROM settlements WHERE appointment_id = $1', [id]), 0);
  assert.equal(await count(mine, 'SELECT count(*) AS n FROM audit_log WHERE entity_id = $1', [id]), audits);
});

test("another store's unit is 404 NOT_FOUND for create and as a reschedule destination", async () => {
  const id = await booked(mine, { starts_at: '2026-06-04T10:00:00Z', ends_at: '2026-06-04T11:00:00Z' });
  const before = await row(mine, id);
  const move = await post(mine, 'reschedule', {
    appointment_id: id,
    unit_id: otherUnit.id,
    starts_at: '2026-06-04T12:00:00Z',
    ends_at: '2026-06-04T13:00:00Z',
  });
  assert.equal(move.status, 404);
  assert.equal(errorCode(move), 'NOT_FOUND');
  assert.deepEqual(await row(mine, id), before);
  const total = await count(mine, 'SELECT count(*) AS n FROM appointments');
  const res = await mine.t.app.inject({
    method: 'POST',
    url: '/api/v1/bookings/appointments',
    headers: { authorization: `Bearer ${mine.token}` },
    payload: {
      store_id: mine.storeId,
      unit_id: otherUnit.id,
      starts_at: '2026-06-04T12:00:00Z',
      ends_at: '2026-06-04T13:00:00Z',
      guest_email: 'a@example.com',
    },
  });
  assert.equal(res.statusCode, 404);
  assert.equal(JSON.parse(res.body).error.code, 'NOT_FOUND');
  assert.equal(await count(mine, 'SELECT count(*) AS n FROM appointments'), total);
});
