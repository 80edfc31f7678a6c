// Email code sign-in for the booking page: the code's rules, the send budgets, the same answer for a
// known and an unknown email, and that unverified input never changes an existing customer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../../support/http.ts';
import { BOOK, callFrom, codeFor, pageShop, sendCode, signIn, solved } from '../../booking-page/support.ts';

const VERIFY = `${BOOK}/email-code/verify`;
const rowsOf = async (w: any) =>
  (await w.t.db.query('SELECT email_hash, code_hash, attempts, used_at FROM email_codes')).rows as any[];

test('a code: 6 digits over real SMTP, kept only as a hash, works once; the token is a customer token', async () => {
  const w = await pageShop();
  const sent = await sendCode(w, 'Kim@Example.com');
  assert.equal(sent.status, 200);
  assert.deepEqual(sent.body, { sent: true, expires_in_s: 600 });
  const code = await codeFor(w, 'kim@example.com');
  assert.match(code, /^\d{6}$/);
  const mail = w.smtp.received.at(-1)!;
  assert.match(mail.mail.subject ?? '', /Test Salon/);
  const rows = await rowsOf(w);
  assert.equal(rows.length, 1);
  assert.match(rows[0].code_hash, /^[0-9a-f]{64}$/);
  assert.ok(
    !JSON.stringify(rows).includes(code) && !JSON.stringify(rows).includes('kim@example.com'),
    'neither code nor email is stored',
  );

  const ok = await call(w.t.app, 'POST', VERIFY, { body: { email: 'kim@example.com', code, name: 'Kim' } });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.body.expires_in_s, 7200);
  assert.equal(ok.body.customer.email, 'kim@example.com');
  assert.equal(ok.body.customer.name, 'Kim');
  const actor = await w.t.tokens.verify(ok.body.token);
  assert.deepEqual({ kind: actor.kind, id: (actor as any).customerId }, { kind: 'customer', id: ok.body.customer.id });
  // The token works on the customer API like any other.
  const mine = await call(w.t.app, 'GET', '/api/v1/me/appointments', { token: ok.body.token });
  assert.equal(mine.status, 200);

  const again = await call(w.t.app, 'POST', VERIFY, { body: { email: 'kim@example.com', code } });
  assert.equal(again.status, 400);
  assert.equal(errorCode(again), 'CODE_EXPIRED');
  assert.ok((await rowsOf(w))[0].used_at, 'the code is marked used');
});

test('5 wrong codes kill the code: the right one is then refused too, with the answer a wrong code gets', async () => {
  const w = await pageShop();
  await sendCode(w, 'wrong@example.com');
  const code = await codeFor(w, 'wrong@example.com');
  const wrong = code === '000000' ? '111111' : '000000';
  const answers: string[] = [];
  for (let i = 1; i <= 5; i++) {
    const res = await call(w.t.app, 'POST', VERIFY, { body: { email: 'wrong@example.com', code: wrong } });
    assert.equal(res.status, 400);
    answers.push(JSON.stringify({ ...res.body.error, requestId: undefined }));
  }
  const right = await call(w.t.app, 'POST', VERIFY, { body: { email: 'wrong@example.com', code } });
  assert.equal(right.status, 400);
  answers.push(JSON.stringify({ ...right.body.error, requestId: undefined }));
  // Wrong, wrong again, and dead read alike: nothing counts down for a prober to watch.
  assert.equal(new Set(answers).size, 1, answers.join('\n'));
  assert.equal(errorCode(right), 'CODE_INVALID');
  assert.equal((await rowsOf(w))[0].attempts, 5);
  assert.equal(
    (await w.t.db.query(`SELECT count(*)::int AS n FROM customers WHERE email = 'wrong@example.com'`)).rows[0].n,
    0,
  );
});

test('a code lives 10 minutes, and a new code replaces the last', async () => {
  const w = await pageShop();
  await sendCode(w, 'slow@example.com');
  const first = await codeFor(w, 'slow@example.com');
  await sendCode(w, 'slow@example.com');
  const second = await codeFor(w, 'slow@example.com', 1);
  if (first !== second) {
    const old = await call(w.t.app, 'POST', VERIFY, { body: { email: 'slow@example.com', code: first } });
    assert.equal(errorCode(old), 'CODE_INVALID');
  }
  assert.equal((await rowsOf(w)).length, 1);
  w.t.clock.advance(600_000);
  const late = await call(w.t.app, 'POST', VERIFY, { body: { email: 'slow@example.com', code: second } });
  assert.equal(late.status, 400);
  assert.equal(errorCode(late), 'CODE_EXPIRED');
  assert.match(late.body.error.message, /expired/);
});

test('the same answer for a known and an unknown email; both get a code', async () => {
  const w = await pageShop();
  await w.t.fx.customer({ name: 'Known Person', email: 'known@example.com' });
  const known = await sendCode(w, 'known@example.com');
  const unknown = await sendCode(w, 'nobody@example.com');
  assert.equal(known.status, unknown.status);
  assert.deepEqual(known.body, unknown.body);
  const headerNames = (h: Record<string, unknown>) =>
    Object.keys(h)
      .filter((k) => k !== 'x-request-id' && k !== 'date')
      .sort();
  assert.deepEqual(headerNames(known.headers), headerNames(unknown.headers));
  assert.equal(known.headers['content-length'], unknown.headers['content-length']);
  await codeFor(w, 'known@example.com');
  await codeFor(w, 'nobody@example.com');
  // Sending never creates a customer: only a verified code does.
  assert.equal(
    (await w.t.db.query(`SELECT count(*)::int AS n FROM customers WHERE email = 'nobody@example.com'`)).rows[0].n,
    0,
  );
});

test('at most 5 sends an hour per email, 20 per address: 429 TOO_MANY_CODES with Retry-After', async () => {
  const w = await pageShop();
  for (let i = 0; i < 5; i++) assert.equal((await sendCode(w, 'busy@example.com', '192.0.2.1')).status, 200);
  const sixth = await sendCode(w, 'busy@example.com', '192.0.2.2');
  assert.equal(sixth.status, 429);
  assert.equal(errorCode(sixth), 'TOO_MANY_CODES');
  assert.equal(sixth.headers['retry-after'], '3600');
  w.t.clock.advance(30 * 60_000);
  assert.equal((await sendCode(w, 'busy@example.com', '192.0.2.2')).headers['retry-after'], '1800');

  for (let i = 0; i < 20; i++)
    assert.equal((await sendCode(w, `person${i}@example.com`, '192.0.2.9')).status, 200, `send ${i}`);
  const twentyFirst = await sendCode(w, 'person-x@example.com', '192.0.2.9');
  assert.equal(twentyFirst.status, 429);
  assert.equal(errorCode(twentyFirst), 'TOO_MANY_CODES');
  assert.ok(Number(twentyFirst.headers['retry-after']) > 0);
  w.t.clock.advance(60 * 60_000);
  assert.equal((await sendCode(w, 'person-x@example.com', '192.0.2.9')).status, 200);
});

test('unverified input never changes an existing customer: name and phone are used only for a new one', async () => {
  const w = await pageShop();
  const existing = await w.t.fx.customer({ name: 'Real Owner', email: 'owner@example.com', phone: '+447812345678' });
  const me = await signIn(w, 'owner@example.com', { name: 'Impostor', phone: '07400 123456' });
  assert.equal(me.customerId, existing.id);
  const row = await w.t.db.query('SELECT name, email, phone FROM customers WHERE id = $1', [existing.id]);
  assert.deepEqual(row.rows[0], { name: 'Real Owner', email: 'owner@example.com', phone: '+447812345678' });
  // A new customer typing a phone that is someone else's does not take it.
  const fresh = await signIn(w, 'fresh@example.com', { name: 'Fresh', phone: '+447812345678' });
  const freshRow = await w.t.db.query('SELECT name, phone FROM customers WHERE id = $1', [fresh.customerId]);
  assert.deepEqual(freshRow.rows[0], { name: 'Fresh', phone: null });
  // An invalid phone is refused before the code is spent.
  await sendCode(w, 'phone@example.com');
  const code = await codeFor(w, 'phone@example.com');
  const bad = await call(w.t.app, 'POST', VERIFY, { body: { email: 'phone@example.com', code, phone: '12345' } });
  assert.equal(errorCode(bad), 'INVALID_PHONE');
  assert.equal((await call(w.t.app, 'POST', VERIFY, { body: { email: 'phone@example.com', code } })).status, 200);
});

test('a filled honeypot is refused quietly and sends nothing', async () => {
  const w = await pageShop();
  const res = await callFrom(w.t.app, 'POST', `${BOOK}/email-code`, undefined, {
    body: { email: 'bot@example.com', altcha: await solved(w.t.app), website: 'x' },
  });
  assert.equal(res.status, 400);
  assert.equal(errorCode(res), 'REQUEST_REFUSED');
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(w.smtp.received.length, 0);
  assert.equal((await rowsOf(w)).length, 0);
});
