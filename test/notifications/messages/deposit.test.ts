// An online booking waiting for its deposit is not confirmed to the customer until the deposit is
// recorded; one whose deposit never came and is cancelled gets no cancellation (it was never confirmed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { emit } from '../../../src/events/outbox.ts';
import { messagesOf, shop, workerFor, type Shop } from './support.ts';

async function pendingBooking(t: TestApp, s: Shop, customerId: string, startsAt: string) {
  const ends = new Date(Date.parse(startsAt) + 45 * 60_000).toISOString();
  const a = (await t.db.query(
    `INSERT INTO appointments (store_id, unit_id, service_id, customer_id, starts_at, ends_at, block, status, currency, deposit_pence, source)
     VALUES ($1, $2, $3, $4, $5, $6, tstzrange($5, $6), 'pending_payment', 'GBP', 1000, 'online') RETURNING *`,
    [s.store.id, s.unit.id, s.service.id, customerId, startsAt, ends],
  )).rows[0];
  // As the online booking path emits it: the appointment as created, still pending payment.
  await emit(t.db, { storeId: s.store.id, type: 'appointment.created', data: { id: a.id, store_id: a.store_id, unit_id: a.unit_id, customer_id: a.customer_id, starts_at: a.starts_at, ends_at: a.ends_at, status: a.status, source: a.source } }, t.clock.now());
  return a;
}

test('pending payment: nothing until the deposit is recorded, then the confirmation and the reminder', async () => {
  const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
  const s = await shop(t);
  const c = await t.fx.customer({ email: 'online@example.test' });
  await t.fx.membership(s.store.id, c.id);
  const worker = workerFor(t);
  const a = await pendingBooking(t, s, c.id, '2026-06-10T09:30:00Z');
  await worker.drain();
  assert.deepEqual(await messagesOf(t, a.id), []);

  const paid = await call(t.app, 'POST', '/api/v1/bookings/appointments/deposit-paid', { token: s.token, idempotencyKey: 'dep-1', body: { store_id: s.store.id, appointment_id: a.id } });
  assert.equal(paid.status, 200, JSON.stringify(paid.body));
  await worker.drain();
  assert.deepEqual((await messagesOf(t, a.id)).map((m) => [m.kind, m.status]), [['confirmation', 'mailbox'], ['reminder', 'pending']]);
});

test('a pending booking cancelled for want of its deposit gets no cancellation notice', async () => {
  const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
  const s = await shop(t);
  const c = await t.fx.customer({ email: 'lapsed@example.test' });
  await t.fx.membership(s.store.id, c.id);
  const worker = workerFor(t);
  const a = await pendingBooking(t, s, c.id, '2026-06-10T09:30:00Z');
  const r = await call(t.app, 'POST', '/api/v1/bookings/appointments/cancel', { token: s.token, idempotencyKey: 'cancel-1', body: { store_id: s.store.id, appointment_id: a.id } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  await worker.drain();
  assert.deepEqual(await messagesOf(t, a.id), []);
});
