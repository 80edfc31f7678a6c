// An online booking waiting for its deposit is not confirmed to the customer until the deposit is
// recorded; one whose deposit never came and is cancelled gets no cancellation (it was never confirmed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { confirm, hold, shop as onlineShop, type Shop as OnlineShop } from '../../bookings/online/helpers.ts';
import { messagesOf, workerFor } from './support.ts';

/** A booking made as a customer makes it online (hold, then confirm) for a service with a deposit: pending payment. */
async function pendingBooking(t: TestApp, startsAt: string): Promise<{ w: OnlineShop; a: { id: string } }> {
  const w = await onlineShop({ t, service: { price_pence: 5000, deposit_policy: JSON.stringify({ percent: 20 }) } });
  const held = await hold(w, { starts_at: startsAt });
  assert.equal(held.status, 200, JSON.stringify(held.body));
  const res = await confirm(w, held.body.hold.id);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.appointment.status, 'pending_payment');
  return { w, a: res.body.appointment };
}

test('pending payment: nothing until the deposit is recorded, then the confirmation and the reminder', async () => {
  const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
  const worker = workerFor(t);
  const { w, a } = await pendingBooking(t, '2026-06-10T09:30:00Z');
  await worker.drain();
  assert.deepEqual(await messagesOf(t, a.id), []);

  const paid = await call(t.app, 'POST', '/api/v1/bookings/appointments/deposit-paid', {
    token: w.merchant,
    idempotencyKey: 'dep-1',
    body: { store_id: w.storeId, appointment_id: a.id },
  });
  assert.equal(paid.status, 200, JSON.stringify(paid.body));
  await worker.drain();
  assert.deepEqual(
    (await messagesOf(t, a.id)).map((m) => [m.kind, m.status]),
    [
      ['confirmation', 'mailbox'],
      ['reminder', 'pending'],
    ],
  );
});

test('a pending booking cancelled for want of its deposit gets no cancellation notice', async () => {
  const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
  const worker = workerFor(t);
  const { w, a } = await pendingBooking(t, '2026-06-10T09:30:00Z');
  const r = await call(t.app, 'POST', '/api/v1/bookings/appointments/cancel', {
    token: w.merchant,
    idempotencyKey: 'cancel-1',
    body: { store_id: w.storeId, appointment_id: a.id },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  await worker.drain();
  assert.deepEqual(await messagesOf(t, a.id), []);
});
