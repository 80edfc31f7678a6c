// No token, email, code or phone number in any log line: the whole booking page flow runs with the
// app's own logger configuration (its serializers, LOG_LEVEL=trace) and every line written is read back.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../src/app.ts';
import { fixedClock } from '../../src/platform/clock.ts';
import { createTokenService } from '../../src/platform/auth/tokens.ts';
import { openTestDatabase, engine } from '../support/engine.ts';
import { testConfig } from '../support/app.ts';
import { Fixtures } from '../support/fixtures.ts';
import { startSmtp } from '../notifications/messages/support.ts';
import { call } from '../support/http.ts';
import { shop } from '../bookings/online/helpers.ts';
import { BOOK, codeFor, pageHold, setStore, SLUG, solved, type PageShop } from './support.ts';

test('the booking page flow writes no email, phone, code or token to the log', async () => {
  const smtp = await startSmtp();
  const config = testConfig({ LOG_LEVEL: 'trace', SMTP_URL: smtp.url, MAIL_FROM: 'Shop <shop@shop.example>' });
  const clock = fixedClock('2026-06-01T09:00:00Z');
  const tokens = createTokenService(config);
  const testDb = await openTestDatabase();
  // The app's own logger (no logger passed: buildApp's serializers), writing to stdout: captured here.
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: any, ...rest: any[]) => {
    const text = String(chunk);
    if (text.startsWith('{"level"')) {
      lines.push(text);
      return true;
    }
    return write(chunk, ...rest);
  }) as typeof process.stdout.write;
  const app = await buildApp({ config, db: testDb.db, clock, tokens });
  after(async () => {
    process.stdout.write = write;
    await app.close();
    await testDb.close();
    await smtp.close();
  });
  const t = {
    app,
    db: testDb.db,
    url: testDb.url,
    clock,
    tokens,
    config,
    fx: new Fixtures(testDb.db, tokens, clock),
    engine,
    sibling: async () => app,
    onClose: () => {},
  };
  const w = { ...(await shop({ t })), smtp, slug: SLUG } as PageShop;
  await setStore(w.t, w.storeId, { booking_page_slug: SLUG, booking_page_enabled: true });

  const email = 'private.person@example.com';
  const phone = '07812 345678';
  const held = await pageHold(w, '2026-06-02T10:00:00.000Z');
  const sent = await call(app, 'POST', `${BOOK}/email-code`, { body: { email, altcha: await solved(app) } });
  assert.equal(sent.status, 200);
  const code = await codeFor(w, email);
  const wrong = await call(app, 'POST', `${BOOK}/email-code/verify`, {
    body: { email, code: code === '999999' ? '000000' : '999999', phone },
  });
  assert.equal(wrong.status, 400);
  const verified = await call(app, 'POST', `${BOOK}/email-code/verify`, {
    body: { email, code, name: 'Private Person', phone },
  });
  assert.equal(verified.status, 200);
  const confirmed = await call(app, 'POST', `${BOOK}/holds/${held.body.hold.id}/confirm`, {
    token: verified.body.token,
    headers: { 'x-page-session': held.body.page_session },
    body: { guest_note: 'a note' },
  });
  assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
  const manageToken = new URL(confirmed.body.manage_url).hash.replace('#token=', '');
  assert.equal((await call(app, 'GET', `${BOOK}/manage`, { token: manageToken })).status, 200);
  // An email in a query string (a refused one, and one on an unknown route) never reaches the log either.
  await call(app, 'GET', `${BOOK}/availability`, { query: { service_id: w.serviceId, email } });
  await app.inject({
    method: 'GET',
    url: `/api/v1/nowhere?email=${encodeURIComponent(email)}&phone=${encodeURIComponent(phone)}`,
  });
  assert.equal((await call(app, 'POST', `${BOOK}/manage/cancel`, { token: manageToken, body: {} })).status, 200);
  // Fastify logs "request completed" in onResponse, after inject has its answer: read the log once
  // every request that came in has its completion line (a condition, not a fixed wait).
  const count = (msg: string) => lines.filter((l) => l.includes(`"msg":"${msg}"`)).length;
  for (let i = 0; count('request completed') < count('incoming request'); i++) {
    assert.ok(i < 500, `${count('incoming request')} requests came in, ${count('request completed')} completed`);
    await new Promise((r) => setImmediate(r));
  }

  assert.ok(lines.length > 10, `the log was captured (${lines.length} lines)`);
  const log = lines.join('');
  for (const secret of [
    email,
    'private.person',
    '+447812345678',
    phone,
    verified.body.token,
    manageToken,
    held.body.page_session,
    'a note',
  ]) {
    assert.ok(!log.includes(secret), `the log contains ${secret.slice(0, 12)}...`);
  }
  // The code as a number of its own (not six digits inside a timestamp or a duration).
  assert.ok(!new RegExp(`(?<![0-9.])${code}(?![0-9])`).test(log), 'the log contains the code');
  assert.ok(log.includes('/api/v1/book/test-salon/email-code'), 'requests are logged (by path)');
});
