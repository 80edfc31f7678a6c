// Customers hear about their class bookings: confirmation and reminder, waitlist place, the offer of
// a freed seat, cancellation; gated like appointment messages (classEventsEnabled, classReminders).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../support/http.ts';
import { messagesOf, workerFor } from '../notifications/messages/support.ts';
import { api, classWorld, ok, scheduled } from './helpers.ts';

const w = await classWorld({ now: '2026-06-01T09:00:00Z' });

test('a confirmation and a reminder, a waitlist place, the offer of a freed seat and a cancellation, each planned once', async () => {
  const { occurrenceId } = await scheduled(
    w,
    { name: 'Spin', capacity: 1, waitlist_mode: 'offer', offer_minutes: 30 },
    '2026-06-03T18:00:00.000Z',
  );
  const worker = workerFor(w.t);
  const guest = (i: number) =>
    api(w, 'POST', `/occurrences/${occurrenceId}/bookings`, {
      guest_name: `Guest ${i}`,
      guest_email: `class.guest${i}@example.test`,
    });
  const a = (await ok(guest(1))).booking;
  const b = (await ok(guest(2))).booking;
  await worker.drain();
  const kinds = async (id: string) =>
    (await messagesOf(w.t, id)).map((m) => [m.kind, m.status]).sort((x, y) => x[0].localeCompare(y[0]));
  assert.deepEqual(await kinds(a.id), [
    ['class_confirmation', 'mailbox'],
    ['class_reminder', 'pending'],
  ]);
  assert.deepEqual([...new Set((await messagesOf(w.t, a.id)).map((m) => m.to_address))], ['class.guest1@example.test']);
  assert.deepEqual(await kinds(b.id), [['class_waitlisted', 'mailbox']]);

  await ok(api(w, 'POST', `/bookings/${a.id}/cancel`, {}));
  await worker.drain();
  assert.deepEqual(await kinds(a.id), [
    ['class_cancelled', 'mailbox'],
    ['class_confirmation', 'mailbox'],
    ['class_reminder', 'pending'],
  ]);
  assert.deepEqual(await kinds(b.id), [
    ['class_offer', 'mailbox'],
    ['class_waitlisted', 'mailbox'],
  ]);
  // At the reminder's time the booking is cancelled: the reminder is not sent.
  w.t.clock.set('2026-06-02T18:05:00Z');
  await worker.drain();
  const reminder = (await messagesOf(w.t, a.id)).find((m) => m.kind === 'class_reminder')!;
  assert.notEqual(reminder.status, 'mailbox');
  assert.equal(reminder.sent_at, null);
  w.t.clock.set('2026-06-01T09:00:00Z');
  const offer = await w.t.db.query(
    `SELECT subject, body_text FROM messages WHERE subject_id = $1 AND kind = 'class_offer'`,
    [b.id],
  );
  assert.equal(offer.rows[0].subject, 'A seat is free: Spin at Test Salon');
  assert.match(offer.rows[0].body_text, /held for you until Mon 1 Jun|held for you until/);
  await worker.drain();
  assert.equal((await messagesOf(w.t, b.id)).length, 2, 'planning again adds nothing');
});

test('a customer who turned class events off hears nothing of their class booking', async () => {
  const { occurrenceId } = await scheduled(w, { name: 'Quiet', capacity: 3 }, '2026-06-04T18:00:00.000Z');
  const c = await w.t.fx.customer({ name: 'Quinn', email: 'quinn@example.test' });
  await w.t.fx.membership(w.storeId, c.id);
  const token = await w.t.fx.customerToken(c.id, ['customer:read', 'customer:write']);
  const pref = await call(w.t.app, 'POST', '/api/v1/notifications/preferences', {
    token,
    body: { storeId: w.storeId, classEventsEnabled: false },
  });
  assert.equal(pref.status, 200, JSON.stringify(pref.body));
  const booking = (
    await ok(api(w, 'POST', `/occurrences/${occurrenceId}/bookings`, { customer_id: c.id, source: 'app' }))
  ).booking;
  await workerFor(w.t).drain();
  const confirmation = (await messagesOf(w.t, booking.id)).find((m) => m.kind === 'class_confirmation');
  assert.equal(confirmation?.status, 'suppressed');
});
