// SMS through a local stand-in for Twilio's Messages API, and the local mailbox used when no
// channel is configured (listed by the operator surface, never reported as sent).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { book, messagesOf, shop, startFakeTwilio, workerFor, type Shop } from './support.ts';

let failNext: { status: number; body: unknown } | null = null;
const twilio = await startFakeTwilio(() => {
  const answer = failNext;
  failNext = null;
  return answer;
});
after(() => twilio.close());
const SMS_ENV = {
  SMS_API_URL: twilio.url,
  SMS_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
  SMS_AUTH_TOKEN: 'test-auth-token',
  SMS_FROM: '+447400123456',
};

async function joinAndCall(t: TestApp, s: Shop, who: Record<string, unknown>) {
  const join = await call(t.app, 'POST', '/api/v1/bookings/queue/join', {
    token: s.token,
    idempotencyKey: `join-${Math.random()}`,
    body: { store_id: s.store.id, service_id: s.service.id, preferred_unit_id: s.unit.id, ...who },
  });
  assert.equal(join.status, 200, JSON.stringify(join.body));
  const entryId = join.body.entry.entry_id;
  const called = await call(t.app, 'POST', '/api/v1/bookings/queue/call', {
    token: s.token,
    idempotencyKey: `call-${Math.random()}`,
    body: { store_id: s.store.id, entry_id: entryId },
  });
  assert.equal(called.status, 200, JSON.stringify(called.body));
  // The planner reads the queue.called event the call itself wrote; nothing here emits one.
  const written = await t.db.query(`SELECT 1 FROM events WHERE type = 'queue.called' AND data->>'entry_id' = $1`, [
    entryId,
  ]);
  assert.equal(written.rowCount, 1, 'calling the entry wrote its queue.called event');
  return entryId as string;
}

test('"you\'re next" goes by SMS in Twilio\'s Messages shape, to E.164 only, and shows in the journey', async () => {
  const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
  const s = await shop(t);
  const c = await t.fx.customer({ name: 'Pat', phone: '+447812345678', email: 'pat@example.test' });
  await t.fx.membership(s.store.id, c.id);
  const worker = workerFor(t, SMS_ENV);
  const entry = await joinAndCall(t, s, { customer_id: c.id });
  await worker.drain();

  assert.equal(twilio.requests.length, 1);
  const req = twilio.requests[0];
  assert.equal(req.path, '/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages.json');
  assert.equal(
    req.authorization,
    `Basic ${Buffer.from('AC0123456789abcdef0123456789abcdef:test-auth-token').toString('base64')}`,
  );
  assert.equal(req.form.get('To'), '+447812345678');
  assert.equal(req.form.get('From'), '+447400123456');
  assert.match(req.form.get('Body')!, /You're next at Fade & Co for Skin fade with Sam/);
  assert.match(req.form.get('Body')!, /within 10 minutes/);
  const [m] = await messagesOf(t, entry);
  assert.deepEqual([m.kind, m.channel, m.status], ['queue_called', 'sms', 'sent']);

  const journey = await call(t.app, 'GET', `/api/v1/customers/${c.id}/journey`, {
    token: s.token,
    query: { store_id: s.store.id },
  });
  const texts = journey.body.events.filter((e: any) => e.type === 'message');
  assert.deepEqual(
    texts.map((e: any) => [e.channel, e.title, e.status, e.autoSent]),
    [['sms', "You're next at Fade & Co", 'sent', true]],
  );

  // A guest's typed UK mobile is sent in E.164; a number that is not one is never handed over.
  const guest = await joinAndCall(t, s, { guest_name: 'Walk In', guest_phone: '07812 345679' });
  const bad = await joinAndCall(t, s, { guest_name: 'Landline', guest_phone: '020 7946 0000' });
  await worker.drain();
  assert.deepEqual(
    twilio.requests.slice(1).map((r) => r.form.get('To')),
    ['+447812345679'],
  );
  assert.equal((await messagesOf(t, guest))[0].status, 'sent');
  const [refused] = await messagesOf(t, bad);
  assert.deepEqual([refused.status, refused.reason], ['failed', 'invalid_number']);
});

test('provider errors: 5xx is retried with backoff and sent once; an invalid-number refusal is recorded and not retried', async () => {
  const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
  const s = await shop(t);
  const worker = workerFor(t, SMS_ENV);
  const before = twilio.requests.length;
  failNext = { status: 503, body: { code: 20503, message: 'Service unavailable' } };
  const entry = await joinAndCall(t, s, { guest_name: 'Retry', guest_phone: '07812 345670' });
  await worker.drain();
  let [m] = await messagesOf(t, entry);
  assert.deepEqual(
    [m.status, m.attempts, m.last_error, m.due_at],
    ['pending', 1, 'sms_503_20503', '2026-06-01T09:00:01.000Z'],
  );
  t.clock.advance(1000);
  await worker.drain();
  [m] = await messagesOf(t, entry);
  assert.deepEqual([m.status, m.attempts], ['sent', 2]);
  assert.equal(twilio.requests.length - before, 2);

  failNext = { status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number." } };
  const second = await joinAndCall(t, s, { guest_name: 'Refused', guest_phone: '07812 345671' });
  await worker.drain();
  t.clock.advance(3_600_000);
  await worker.drain();
  const [r] = await messagesOf(t, second);
  assert.deepEqual(
    [r.status, r.reason, r.last_error, r.attempts],
    ['failed', 'refused_permanently', 'sms_400_21211', 1],
  );
});

test('without a channel, messages are kept in the local mailbox: listed for the operator, never reported as sent, not in the journey', async () => {
  const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
  const s = await shop(t);
  const c = await t.fx.customer({ email: 'kept@example.test' });
  await t.fx.membership(s.store.id, c.id);
  const worker = workerFor(t); // no SMTP_URL, no SMS provider
  const a = await book(t, s, '2026-06-10T09:30:00Z', { customer_id: c.id });
  await worker.drain();
  const rows = await messagesOf(t, a.id);
  assert.deepEqual(
    rows.map((m) => [m.kind, m.status, m.sent_at]),
    [
      ['confirmation', 'mailbox', null],
      ['reminder', 'pending', null],
    ],
  );

  const admin = { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } };
  const list = await call(t.app, 'GET', `/admin/v1/stores/${s.store.id}/messages`, {
    ...admin,
    query: { status: 'mailbox' },
  });
  assert.equal(list.status, 200);
  assert.equal(list.body.messages.length, 1);
  const [kept] = list.body.messages;
  assert.deepEqual(
    [kept.kind, kept.channel, kept.status, kept.to, kept.sent_at, kept.subject],
    ['confirmation', 'email', 'mailbox', 'kept@example.test', null, 'Booking confirmed: Skin fade at Fade & Co'],
  );
  assert.match(kept.text, /Wednesday 10 June 2026 at 10:30 BST/);
  assert.match(kept.ics, /^DTSTART;TZID=Europe\/London:20260610T103000\r?$/m);
  const all = await call(t.app, 'GET', `/admin/v1/stores/${s.store.id}/messages`, admin);
  assert.deepEqual(all.body.messages.map((m: any) => m.status).sort(), ['mailbox', 'pending']);
  // Another store's list does not show them; an unknown store is 404.
  const other = await t.fx.store({ name: 'Other' });
  assert.deepEqual((await call(t.app, 'GET', `/admin/v1/stores/${other.id}/messages`, admin)).body.messages, []);
  assert.equal(
    (await call(t.app, 'GET', '/admin/v1/stores/00000000-0000-4000-8000-000000000000/messages', admin)).status,
    404,
  );
  assert.equal(
    (await call(t.app, 'GET', `/admin/v1/stores/${s.store.id}/messages`, { token: s.token })).status,
    403,
    'a merchant token is not the operator',
  );

  const journey = await call(t.app, 'GET', `/api/v1/customers/${c.id}/journey`, {
    token: s.token,
    query: { store_id: s.store.id },
  });
  assert.equal(journey.body.events.filter((e: any) => e.type === 'email' || e.type === 'message').length, 0);
});
