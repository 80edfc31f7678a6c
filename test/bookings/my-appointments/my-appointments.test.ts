// The customer's own bookings: list, and cancel outside the store's cancellation window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { anotherCustomer, confirm, eventsOf, hold, localTimesOf, search, shop } from '../online/helpers.ts';

const t = await startTestApp({ now: '2026-06-01T08:00:00Z' });
const ME = '/api/v1/me/appointments';

test("my bookings list only my own, filtered by store and upcoming; someone else's reads as missing", async () => {
  const w = await shop({ t });
  const other = await anotherCustomer(w);
  const mine = await confirm(w, (await hold(w, { starts_at: '2026-06-02T08:00:00Z' })).body.hold.id);
  const theirs = await confirm(
    w,
    (await hold(w, { starts_at: '2026-06-02T10:00:00Z' }, other.token)).body.hold.id,
    other.token,
  );
  const list = await call(t.app, 'GET', ME, { token: w.customer, query: { store_id: w.storeId, upcoming: true } });
  assert.deepEqual(list.body, { appointments: [mine.body.appointment] });
  const elsewhere = await t.fx.store();
  assert.deepEqual((await call(t.app, 'GET', ME, { token: w.customer, query: { store_id: elsewhere.id } })).body, {
    appointments: [],
  });
  t.clock.set('2026-06-03T08:00:00Z');
  try {
    assert.deepEqual(
      (await call(t.app, 'GET', ME, { token: w.customer, query: { upcoming: true } })).body.appointments,
      [],
    );
    assert.equal((await call(t.app, 'GET', ME, { token: w.customer })).body.appointments.length, 1);
  } finally {
    t.clock.set('2026-06-01T08:00:00Z');
  }
  assert.equal(
    (await call(t.app, 'POST', `${ME}/${theirs.body.appointment.id}/cancel`, { token: w.customer, body: {} })).status,
    404,
  );
  assert.equal((await call(t.app, 'GET', ME, { token: w.merchant })).status, 403);
});

test("a cancel inside the store's window is refused and changes nothing; outside it cancels like the merchant, freeing the slot", async () => {
  const w = await shop({ t, store: { cancellation_window_min: 24 * 60 } });
  // 2026-06-02 09:00 local is 24 hours after now: exactly at the window's edge, so inside.
  const inside = await confirm(w, (await hold(w, { starts_at: '2026-06-02T08:00:00Z' })).body.hold.id);
  const outside = await confirm(w, (await hold(w, { starts_at: '2026-06-03T08:00:00Z' })).body.hold.id);
  const refused = await call(t.app, 'POST', `${ME}/${inside.body.appointment.id}/cancel`, {
    token: w.customer,
    body: {},
  });
  assert.equal(errorCode(refused), 'CANCELLATION_WINDOW');
  assert.equal(refused.status, 409);
  assert.equal(
    refused.body.error.message,
    'Within 1440 minutes of the start the booking can only be cancelled by the shop',
  );
  const row = await t.db.query<{ status: string }>('SELECT status FROM appointments WHERE id = $1', [
    inside.body.appointment.id,
  ]);
  assert.equal(row.rows[0].status, 'confirmed');
  const id = outside.body.appointment.id;
  const ok = await call(t.app, 'POST', `${ME}/${id}/cancel`, { token: w.customer, body: { reason: 'Plans changed' } });
  assert.deepEqual(ok.body, { appointment_id: id, cancelled: true, noop: false });
  assert.deepEqual((await call(t.app, 'POST', `${ME}/${id}/cancel`, { token: w.customer, body: {} })).body, {
    appointment_id: id,
    cancelled: true,
    noop: true,
  });
  const after = await t.db.query<{ status: string; cancel_reason: string }>(
    'SELECT status, cancel_reason FROM appointments WHERE id = $1',
    [id],
  );
  assert.deepEqual(after.rows[0], { status: 'cancelled', cancel_reason: 'Plans changed' });
  const cancelled = await eventsOf(t, w.storeId, 'appointment.cancelled');
  assert.deepEqual(
    cancelled.map((e) => [e.id, e.status, e.cancelled_by]),
    [[id, 'cancelled', 'customer']],
  );
  assert.ok(
    localTimesOf(await search(w, { from_date: '2026-06-03', to_date: '2026-06-03' }), '2026-06-03').includes('09:00'),
  );
  const audit = await t.db.query<{ actor_kind: string; store_id: string }>(
    `SELECT actor_kind, store_id FROM audit_log WHERE action = 'appointment.cancelled' AND entity_id = $1`,
    [id],
  );
  assert.deepEqual(audit.rows, [{ actor_kind: 'customer', store_id: w.storeId }]);
});
