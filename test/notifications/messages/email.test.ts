// Email over a real SMTP server (smtp-server on a loopback port): the MIME that arrives, its
// calendar attachment (zone, UID, SEQUENCE, METHOD), and the journey entry of each sent message.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { book, messagesOf, reschedule, shop, startSmtp, statusCall, workerFor, type Received } from './support.ts';

const smtp = await startSmtp();
after(() => smtp.close());

function calendarPart(r: Received): string {
  const part = r.mail.attachments.find((a) => a.contentType.startsWith('text/calendar'));
  assert.ok(part, 'a text/calendar part is attached');
  return part.content.toString('utf8').replace(/\r\n /g, '');
}

test('confirmation, change and cancellation arrive as MIME with an .ics in the store zone: same UID, rising SEQUENCE', async () => {
  const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
  const s = await shop(t);
  const c = await t.fx.customer({ name: 'Alex Example', email: 'alex@example.test' });
  await t.fx.membership(s.store.id, c.id);
  // Private things the shop wrote about this customer must never reach them.
  await t.db.query(
    `UPDATE store_customers SET merchant_note = 'owes us a tenner', block_reason = 'rude on the phone' WHERE customer_id = $1`,
    [c.id],
  );
  const worker = workerFor(t, { SMTP_URL: smtp.url });
  const a = await book(t, s, '2026-06-10T09:30:00Z', { customer_id: c.id });
  // Creating the appointment plans nothing itself: the worker plans from the feed afterwards.
  assert.equal((await messagesOf(t, a.id)).length, 0);

  await worker.drain();
  assert.equal(smtp.received.length, 1);
  const confirmation = smtp.received[0];
  assert.deepEqual(confirmation.to, ['alex@example.test']);
  assert.equal(confirmation.mail.from?.value[0].address, 'bookings@shop.test');
  assert.equal(confirmation.mail.subject, 'Booking confirmed: Skin fade at Fade & Co');
  // Names the shop, the service, the unit and the local time (10:30 BST is 09:30Z in June).
  for (const part of [confirmation.mail.text!, confirmation.mail.html as string]) {
    assert.match(part, /Fade (&|&amp;) Co/);
    assert.match(part, /Skin fade/);
    assert.match(part, /Sam/);
    assert.match(part, /Wednesday 10 June 2026 at 10:30 BST/);
    assert.doesNotMatch(part, /tenner|rude/);
  }
  const rows = await messagesOf(t, a.id);
  const sentConfirmation = rows.find((m) => m.kind === 'confirmation')!;
  assert.equal(sentConfirmation.status, 'sent');
  assert.equal(
    confirmation.mail.messageId,
    sentConfirmation.message_id,
    'Message-ID is the one derived from the message key',
  );
  let ics = calendarPart(confirmation);
  assert.match(ics, /^METHOD:REQUEST$/m);
  assert.match(ics, /^BEGIN:VTIMEZONE$/m);
  assert.match(ics, /^TZID:Europe\/London$/m);
  assert.match(ics, /^DTSTART;TZID=Europe\/London:20260610T103000$/m);
  assert.match(ics, /^DTEND;TZID=Europe\/London:20260610T111500$/m);
  assert.match(ics, new RegExp(`^UID:${a.id}@bookings-back-office$`, 'm'));
  assert.match(ics, /^SEQUENCE:0$/m);
  assert.doesNotMatch(ics, /tenner|rude/);
  // The reminder waits for its time, 24 hours before the start.
  const reminder = rows.find((m) => m.kind === 'reminder')!;
  assert.equal(reminder.status, 'pending');
  assert.equal(reminder.due_at, '2026-06-09T09:30:00.000Z');

  // A reschedule: a change notice with the same UID and a higher SEQUENCE, in the new local time.
  t.clock.advance(60_000);
  await reschedule(t, s, a, '2026-06-12T13:00:00Z');
  await worker.drain();
  assert.equal(smtp.received.length, 2);
  const change = smtp.received[1];
  assert.equal(change.mail.subject, 'Booking changed: Skin fade at Fade & Co');
  assert.match(change.mail.text!, /now Friday 12 June 2026 at 14:00 BST/);
  assert.match(change.mail.text!, /It was Wednesday 10 June 2026 at 10:30 BST/);
  ics = calendarPart(change);
  assert.match(ics, /^METHOD:REQUEST$/m);
  assert.match(ics, new RegExp(`^UID:${a.id}@bookings-back-office$`, 'm'));
  assert.match(ics, /^SEQUENCE:1$/m);
  assert.match(ics, /^DTSTART;TZID=Europe\/London:20260612T140000$/m);

  // A cancellation: METHOD:CANCEL, the same UID, a higher SEQUENCE still.
  t.clock.advance(60_000);
  await statusCall(t, s, a.id, 'cancel');
  await worker.drain();
  assert.equal(smtp.received.length, 3);
  const cancellation = smtp.received[2];
  assert.equal(cancellation.mail.subject, 'Booking cancelled: Skin fade at Fade & Co');
  ics = calendarPart(cancellation);
  assert.match(ics, /^METHOD:CANCEL$/m);
  assert.match(ics, /^STATUS:CANCELLED$/m);
  assert.match(ics, new RegExp(`^UID:${a.id}@bookings-back-office$`, 'm'));
  assert.match(ics, /^SEQUENCE:2$/m);
  const ids = smtp.received.map((r) => r.mail.messageId);
  assert.equal(new Set(ids).size, 3, 'each message has its own Message-ID');

  // Both reminders are withdrawn with their reasons, none sent; nothing else is left to go.
  const after = await messagesOf(t, a.id);
  assert.deepEqual(
    after.filter((m) => m.kind === 'reminder').map((m) => [m.status, m.reason]),
    [
      ['withdrawn', 'rescheduled'],
      ['withdrawn', 'cancelled'],
    ],
  );
  assert.deepEqual(
    after
      .filter((m) => m.status === 'sent')
      .map((m) => m.kind)
      .sort(),
    ['cancellation', 'change', 'confirmation'],
  );

  // The journey shows the three sent emails at this store, as email events on the email channel.
  const journey = await call(t.app, 'GET', `/api/v1/customers/${c.id}/journey`, {
    token: s.token,
    query: { store_id: s.store.id },
  });
  assert.equal(journey.status, 200);
  const emails = journey.body.events.filter((e: any) => e.type === 'email');
  assert.deepEqual(
    emails.map((e: any) => [e.channel, e.title, e.status]),
    [
      ['email', 'Booking cancelled: Skin fade at Fade & Co', 'sent'],
      ['email', 'Booking changed: Skin fade at Fade & Co', 'sent'],
      ['email', 'Booking confirmed: Skin fade at Fade & Co', 'sent'],
    ],
  );
  // Another store's journey for the same customer shows none of them.
  const other = await t.fx.store({ name: 'Elsewhere' });
  await t.fx.membership(other.id, c.id);
  const otherJourney = await call(t.app, 'GET', `/api/v1/customers/${c.id}/journey`, {
    token: await t.fx.merchantToken(other.id),
    query: { store_id: other.id },
  });
  assert.equal(otherJourney.body.events.filter((e: any) => e.type === 'email').length, 0);
});

test('a 5xx refusal is recorded as failed and not retried; a restart of the worker sends nothing twice', async () => {
  const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
  const s = await shop(t);
  const refused = await t.fx.customer({ email: 'nobody@example.test' });
  const fine = await t.fx.customer({ email: 'fine@example.test', phone: null });
  await t.fx.membership(s.store.id, refused.id);
  await t.fx.membership(s.store.id, fine.id);
  smtp.refuse.set('nobody@example.test', 550);
  const before = smtp.received.length;
  const a = await book(t, s, '2026-06-10T09:30:00Z', { customer_id: refused.id });
  const b = await book(t, s, '2026-06-10T11:30:00Z', { customer_id: fine.id });
  await workerFor(t, { SMTP_URL: smtp.url }).drain();
  const [failed] = (await messagesOf(t, a.id)).filter((m) => m.kind === 'confirmation');
  assert.deepEqual(
    [failed.status, failed.reason, failed.last_error, failed.attempts],
    ['failed', 'refused_permanently', 'smtp_550', 1],
  );
  // A second worker (a restart) plans nothing again and sends nothing again.
  t.clock.advance(3_600_000);
  await workerFor(t, { SMTP_URL: smtp.url }).drain();
  assert.equal(smtp.received.length - before, 1, 'only the accepted confirmation arrived, once');
  assert.equal((await messagesOf(t, a.id)).find((m) => m.kind === 'confirmation')!.attempts, 1);
  assert.equal((await messagesOf(t, b.id)).find((m) => m.kind === 'confirmation')!.status, 'sent');
  smtp.refuse.clear();
});
