// Verify cannot be used to burn or probe codes (issue 41): at most 10 tries a minute from one address
// and 10 for one email, and "no code" reads exactly like "wrong code".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorCode } from '../../support/http.ts';
import { BOOK, callFrom, codeFor, pageShop, sendCode } from '../../booking-page/support.ts';

const VERIFY = `${BOOK}/email-code/verify`;
const verifyFrom = (w: Awaited<ReturnType<typeof pageShop>>, ip: string, email: string, code: string) =>
  callFrom(w.t.app, 'POST', VERIFY, ip, { body: { email, code } });

test('no code and a wrong code give one answer: status, body and headers alike', async () => {
  const w = await pageShop();
  await sendCode(w, 'pending@example.com');
  const code = await codeFor(w, 'pending@example.com');
  const wrong = code === '123456' ? '654321' : '123456';
  const pending = await verifyFrom(w, '192.0.2.10', 'pending@example.com', wrong);
  const none = await verifyFrom(w, '192.0.2.11', 'nobody@example.com', wrong);
  assert.equal(pending.status, 400);
  assert.equal(none.status, pending.status);
  assert.deepEqual({ ...none.body.error, requestId: 0 }, { ...pending.body.error, requestId: 0 });
  assert.equal(errorCode(none), 'CODE_INVALID');
  const names = (h: Record<string, unknown>) =>
    Object.keys(h)
      .filter((k) => k !== 'x-request-id' && k !== 'date')
      .sort();
  assert.deepEqual(names(none.headers), names(pending.headers));
});

test('at most 10 verify tries a minute from one address: the 11th is 429 with Retry-After, another address is unaffected', async () => {
  const w = await pageShop();
  for (let i = 0; i < 10; i++) {
    const res = await verifyFrom(w, '192.0.2.20', `probe${i}@example.com`, '000000');
    assert.equal(res.status, 400, `try ${i + 1}`);
  }
  const eleventh = await verifyFrom(w, '192.0.2.20', 'probe-x@example.com', '000000');
  assert.equal(eleventh.status, 429);
  assert.equal(errorCode(eleventh), 'RATE_LIMITED');
  assert.ok(Number(eleventh.headers['retry-after']) > 0 && Number(eleventh.headers['retry-after']) <= 60);
  assert.equal((await verifyFrom(w, '192.0.2.21', 'probe-y@example.com', '000000')).status, 400);
  w.t.clock.advance(60_000);
  assert.equal((await verifyFrom(w, '192.0.2.20', 'probe-z@example.com', '000000')).status, 400);
});

test('a burst on one email from many addresses cannot burn its code: throttled, the pending code still works', async () => {
  const w = await pageShop();
  await sendCode(w, 'victim@example.com');
  const code = await codeFor(w, 'victim@example.com');
  const wrong = code === '000000' ? '111111' : '000000';
  // 10 tries a minute for one email: four wrong ones, then the owner's right one, in the same minute.
  for (let i = 0; i < 4; i++)
    assert.equal((await verifyFrom(w, `198.51.100.${i + 1}`, 'victim@example.com', wrong)).status, 400);
  const owner = await verifyFrom(w, '203.0.113.7', 'victim@example.com', code);
  assert.equal(owner.status, 200, JSON.stringify(owner.body));
});

test('the 11th try on one email in a minute is refused before the code is looked at', async () => {
  const w = await pageShop();
  await sendCode(w, 'target@example.com');
  const code = await codeFor(w, 'target@example.com');
  const wrong = code === '000000' ? '111111' : '000000';
  for (let i = 0; i < 10; i++) await verifyFrom(w, `198.51.100.${i + 1}`, 'target@example.com', wrong);
  const eleventh = await verifyFrom(w, '198.51.100.99', 'target@example.com', code);
  assert.equal(eleventh.status, 429);
  assert.equal(errorCode(eleventh), 'RATE_LIMITED');
  const attempts = (await w.t.db.query('SELECT attempts FROM email_codes')).rows[0].attempts;
  assert.equal(attempts, 5, 'five wrong tries killed it; the throttled ones were never counted');
});
