// "Text me a code" (issue 41): offered only when an SMS provider is configured; a UK mobile only;
// the email code's limits, lifetime and single use; the texted code finds or creates the customer
// by phone, and unverified input never changes an existing one.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../../support/http.ts';
import { startFakeTwilio } from '../../notifications/messages/support.ts';
import { BOOK, callFrom, pageShop, solved, type PageShop } from '../../booking-page/support.ts';

const twilio = await startFakeTwilio();
after(() => twilio.close());
const SMS_ENV = {
  SMS_API_URL: twilio.url,
  SMS_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
  SMS_AUTH_TOKEN: 'test-auth-token',
  SMS_FROM: '+447400123456',
};
const SEND = `${BOOK}/sms-code`;
const VERIFY = `${BOOK}/sms-code/verify`;

const textSend = async (w: PageShop, phone: string, ip?: string) =>
  callFrom(w.t.app, 'POST', SEND, ip, { body: { phone, altcha: await solved(w.t.app) } });

async function textedCode(to: string, before: number): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const mine = twilio.requests.filter((r) => r.form.get('To') === to);
    if (mine.length > before) return /\b(\d{6})\b/.exec(mine.at(-1)!.form.get('Body') ?? '')![1];
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no text reached the provider');
}
const sentTo = (to: string) => twilio.requests.filter((r) => r.form.get('To') === to).length;

test('with an SMS provider the page offers text; a UK mobile gets a code that signs in once', async () => {
  const w = await pageShop({ app: { env: SMS_ENV } });
  assert.equal((await call(w.t.app, 'GET', BOOK)).body.page.sign_in, 'email_or_sms');
  const before = sentTo('+447812345001');
  const sent = await textSend(w, '07812 345001');
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  assert.deepEqual(sent.body, { sent: true, expires_in_s: 600 });
  const code = await textedCode('+447812345001', before);
  const rows = (await w.t.db.query('SELECT code_hash FROM email_codes')).rows;
  assert.equal(rows.length, 1);
  assert.ok(
    !JSON.stringify(rows).includes(code) && !JSON.stringify(rows).includes('7812345001'),
    'neither code nor number stored',
  );

  const ok = await call(w.t.app, 'POST', VERIFY, {
    body: { phone: '+44 7812 345001', code, name: 'Texted', email: 'texted@example.com' },
  });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.deepEqual(
    { ...ok.body.customer, id: undefined },
    { id: undefined, name: 'Texted', email: 'texted@example.com', phone: '+447812345001' },
  );
  const actor = await w.t.tokens.verify(ok.body.token);
  assert.equal((actor as any).customerId, ok.body.customer.id);
  const again = await call(w.t.app, 'POST', VERIFY, { body: { phone: '07812345001', code } });
  assert.equal(errorCode(again), 'CODE_EXPIRED');
});

test('a texted code lives 10 minutes; an existing customer is found by phone and not changed', async () => {
  const w = await pageShop({ app: { env: SMS_ENV } });
  const owner = await w.t.fx.customer({ name: 'Phone Owner', email: 'owner@example.com', phone: '+447812345002' });
  let before = sentTo('+447812345002');
  await textSend(w, '07812345002');
  const first = await textedCode('+447812345002', before);
  w.t.clock.advance(600_000);
  assert.equal(
    errorCode(await call(w.t.app, 'POST', VERIFY, { body: { phone: '07812345002', code: first } })),
    'CODE_EXPIRED',
  );
  before = sentTo('+447812345002');
  await textSend(w, '07812345002');
  const second = await textedCode('+447812345002', before);
  const ok = await call(w.t.app, 'POST', VERIFY, {
    body: { phone: '07812345002', code: second, name: 'Impostor', email: 'impostor@example.com' },
  });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.customer.id, owner.id);
  const row = (await w.t.db.query('SELECT name, email, phone FROM customers WHERE id = $1', [owner.id])).rows[0];
  assert.deepEqual(row, { name: 'Phone Owner', email: 'owner@example.com', phone: '+447812345002' });
});

test("texts share the email code's limits: 5 an hour per phone, then 429 TOO_MANY_CODES", async () => {
  const w = await pageShop({ app: { env: SMS_ENV } });
  for (let i = 0; i < 5; i++) assert.equal((await textSend(w, '07812345003', `192.0.2.${i + 1}`)).status, 200);
  const sixth = await textSend(w, '07812345003', '192.0.2.50');
  assert.equal(sixth.status, 429);
  assert.equal(errorCode(sixth), 'TOO_MANY_CODES');
  assert.equal(sixth.headers['retry-after'], '3600');
});

test('not a UK mobile: 400 INVALID_PHONE and nothing sent; without a provider: 503 SIGN_IN_UNAVAILABLE', async () => {
  const w = await pageShop({ app: { env: SMS_ENV } });
  const before = twilio.requests.length;
  for (const phone of ['020 7946 0000', '+1 415 555 0100', 'call me']) {
    const res = await textSend(w, phone);
    assert.equal(res.status, 400, phone);
    assert.equal(errorCode(res), 'INVALID_PHONE');
  }
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(twilio.requests.length, before);
  assert.equal((await w.t.db.query('SELECT count(*)::int AS n FROM email_codes')).rows[0].n, 0);

  const plain = await pageShop();
  assert.equal((await call(plain.t.app, 'GET', BOOK)).body.page.sign_in, 'email');
  const refused = await textSend(plain, '07812345004');
  assert.equal(refused.status, 503);
  assert.equal(errorCode(refused), 'SIGN_IN_UNAVAILABLE');
});
