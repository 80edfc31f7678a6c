// Timing follows the appointment: the reminder at reminder_lead_hours before the start (elapsed
// hours, also across a daylight-saving change), re-planned on reschedule, withdrawn on cancel and
// no-show, and nothing sent for an appointment whose start has passed by sending time.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { book, messagesOf, reschedule, shop, startSmtp, statusCall, workerFor } from './support.ts';

const smtp = await startSmtp();
after(() => smtp.close());

const reminders = (rows: any[]) => rows.filter((m) => m.kind === 'reminder').map((m) => [m.status, m.reason, m.due_at]);
const arrivedFor = (to: string, subject: RegExp) =>
  smtp.received.filter((r) => r.to.includes(to) && subject.test(r.mail.subject ?? ''));

test('a reschedule re-plans the reminder; a cancel withdraws it; a no-show withdraws it', async () => {
  const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
  const s = await shop(t, { lead: 24 });
  const c = await t.fx.customer({ email: 'move@example.test' });
  await t.fx.membership(s.store.id, c.id);
  const worker = workerFor(t, { SMTP_URL: smtp.url });
  const a = await book(t, s, '2026-06-10T09:30:00Z', { customer_id: c.id });
  await worker.drain();
  assert.deepEqual(reminders(await messagesOf(t, a.id)), [['pending', null, '2026-06-09T09:30:00.000Z']]);

  await reschedule(t, s, a, '2026-06-15T12:00:00Z');
  await worker.drain();
  assert.deepEqual(reminders(await messagesOf(t, a.id)), [
    ['withdrawn', 'rescheduled', '2026-06-09T09:30:00.000Z'],
    ['pending', null, '2026-06-14T12:00:00.000Z'],
  ]);
  // At the old reminder time nothing goes; at the new one, one reminder for the new time.
  t.clock.set('2026-06-09T09:30:00Z');
  await worker.drain();
  assert.equal(arrivedFor('move@example.test', /^Reminder/).length, 0);
  t.clock.set('2026-06-14T12:00:00Z');
  await worker.drain();
  const sent = arrivedFor('move@example.test', /^Reminder/);
  assert.equal(sent.length, 1);
  assert.match(sent[0].mail.text!, /Monday 15 June 2026 at 13:00 BST/);

  // Cancel: the reminder of a second booking is withdrawn and never sent.
  t.clock.set('2026-06-01T10:00:00Z');
  const b = await book(t, s, '2026-06-20T09:00:00Z', { customer_id: c.id });
  await worker.drain();
  await statusCall(t, s, b.id, 'cancel');
  await worker.drain();
  assert.deepEqual(
    reminders(await messagesOf(t, b.id)).map((r) => r.slice(0, 2)),
    [['withdrawn', 'cancelled']],
  );
  t.clock.set('2026-06-19T09:00:00Z');
  await worker.drain();
  assert.equal(arrivedFor('move@example.test', /^Reminder: .*Saturday 20 June/).length, 0);

  // No-show: the reminder not yet sent is withdrawn.
  t.clock.set('2026-06-01T11:00:00Z');
  const d = await book(t, s, '2026-06-03T09:00:00Z', { customer_id: c.id });
  await worker.drain();
  // The worker was down at the reminder's time (9:00 on the 2nd), and the customer did not come.
  t.clock.set('2026-06-03T10:00:00Z');
  await statusCall(t, s, d.id, 'no-show');
  await worker.drain();
  assert.deepEqual(
    reminders(await messagesOf(t, d.id)).map((r) => r.slice(0, 2)),
    [['withdrawn', 'no_show']],
  );
});

test('an appointment moved into the past, or whose start passed before sending, sends nothing', async () => {
  const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
  const s = await shop(t, { lead: 24 });
  const c = await t.fx.customer({ email: 'past@example.test' });
  await t.fx.membership(s.store.id, c.id);
  const worker = workerFor(t, { SMTP_URL: smtp.url });
  const a = await book(t, s, '2026-06-10T09:30:00Z', { customer_id: c.id });
  await worker.drain(); // confirmed
  // Moved to yesterday (a correction after the fact): no change notice, no reminder.
  await reschedule(t, s, a, '2026-05-31T09:00:00Z');
  await worker.drain();
  const rows = await messagesOf(t, a.id);
  assert.deepEqual(
    rows.filter((m) => m.kind === 'change').map((m) => [m.status, m.reason]),
    [['suppressed', 'appointment_in_past']],
  );
  assert.deepEqual(
    rows
      .filter((m) => m.kind === 'reminder')
      .map((m) => [m.status, m.reason])
      .sort(),
    [
      ['suppressed', 'booked_inside_reminder_lead'],
      ['withdrawn', 'rescheduled'],
    ],
  );
  assert.equal(arrivedFor('past@example.test', /^Booking changed|^Reminder/).length, 0);

  // The worker was down past the start: the reminder, due long ago, is re-checked and not sent.
  const b = await book(t, s, '2026-06-03T09:00:00Z', { customer_id: c.id });
  await worker.drain();
  t.clock.set('2026-06-03T09:00:01Z');
  await worker.drain();
  assert.deepEqual(
    reminders(await messagesOf(t, b.id)).map((r) => r.slice(0, 2)),
    [['suppressed', 'appointment_in_past']],
  );
  assert.equal(arrivedFor('past@example.test', /^Reminder/).length, 0);
});

for (const [label, startsAt, dueAt, localStart] of [
  // 25 Oct 2026, clocks go back at 02:00 BST: 10:00 GMT on the Sunday is 10:00Z; 24 hours before is 11:00 BST on the Saturday.
  ['autumn (clocks go back)', '2026-10-25T10:00:00Z', '2026-10-24T10:00:00Z', 'Sunday 25 October 2026 at 10:00 GMT'],
  // 29 Mar 2026, clocks go forward at 01:00 GMT: 10:00 BST is 09:00Z; 24 hours before is 09:00 GMT on the Saturday.
  ['spring (clocks go forward)', '2026-03-29T09:00:00Z', '2026-03-28T09:00:00Z', 'Sunday 29 March 2026 at 10:00 BST'],
] as const) {
  test(`the reminder goes exactly reminder_lead_hours before the start on a DST-change day: ${label}`, async () => {
    const t = await startTestApp({ now: '2026-03-01T09:00:00Z' });
    const s = await shop(t, { lead: 24 });
    const to = `dst-${startsAt.slice(5, 7)}@example.test`;
    const c = await t.fx.customer({ email: to });
    await t.fx.membership(s.store.id, c.id);
    const worker = workerFor(t, { SMTP_URL: smtp.url });
    const a = await book(t, s, startsAt, { customer_id: c.id });
    await worker.drain();
    assert.equal(arrivedFor(to, /^Booking confirmed/).length, 1);
    t.clock.set(new Date(Date.parse(dueAt) - 1000));
    await worker.drain();
    assert.equal(arrivedFor(to, /^Reminder/).length, 0, 'not a second early');
    t.clock.set(dueAt);
    await worker.drain();
    const [reminder] = arrivedFor(to, /^Reminder/);
    assert.ok(reminder, 'sent at the lead time');
    assert.match(reminder.mail.text!, new RegExp(localStart));
    const row = (await messagesOf(t, a.id)).find((m) => m.kind === 'reminder')!;
    assert.deepEqual([row.status, row.sent_at], ['sent', new Date(dueAt).toISOString()]);
  });
}
