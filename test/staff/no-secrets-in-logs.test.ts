// No password, token, session id, API key or email reaches the log: the service's own logger
// settings at level trace, through invitations (mailed and not), accepting, signing in (right,
// wrong, unknown), the session routes and an API key.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp, loggerOptions } from '../../src/app.ts';
import { fixedClock } from '../../src/platform/clock.ts';
import { openTestDatabase } from '../support/engine.ts';
import { ADMIN_TOKEN, testConfig } from '../support/app.ts';
import { Fixtures } from '../support/fixtures.ts';
import { createTokenService } from '../../src/platform/auth/tokens.ts';
import { call } from '../support/http.ts';
import { startSmtp } from '../notifications/messages/support.ts';
import { as, cookieOf, FIXTURE, GOOD_PASSWORD, mailedToken } from './support.ts';

const smtp = await startSmtp();
const lines: string[] = [];
const config = { ...testConfig({ SMTP_URL: smtp.url, STAFF_COMMON_PASSWORDS_FILE: FIXTURE }), logLevel: 'trace' };
const clock = fixedClock('2026-06-01T09:00:00Z');
const tokens = createTokenService(config);
const db = await openTestDatabase();
const app = await buildApp({
  config,
  db: db.db,
  clock,
  tokens,
  logger: {
    ...(loggerOptions(config) as object),
    level: 'trace',
    stream: { write: (line: string) => void lines.push(line) },
  } as any,
});
after(async () => {
  await app.close();
  await db.close();
  await smtp.close();
});
const fx = new Fixtures(db.db, tokens, clock);

test('no secret or address is logged across the staff flows', async () => {
  const store = await fx.store();
  const secrets: string[] = [
    GOOD_PASSWORD,
    'owner@logs.test',
    'desk@logs.test',
    'wrong password, logged?',
    'passwordpassword',
  ];
  await call(app, 'POST', `/admin/v1/stores/${store.id}/staff/invitations`, {
    token: ADMIN_TOKEN,
    body: { email: 'owner@logs.test', role: 'owner' },
  });
  const invite = await mailedToken(smtp, 'owner@logs.test');
  secrets.push(invite);
  await call(app, 'POST', '/api/v1/auth/invitations/accept', {
    body: { token: invite, name: 'Owner', password: 'passwordpassword' },
  });
  const accepted = await call(app, 'POST', '/api/v1/auth/invitations/accept', {
    body: { token: invite, name: 'Owner', password: GOOD_PASSWORD },
  });
  const cookie = cookieOf(accepted);
  secrets.push(cookie.split('=')[1]);
  await call(app, 'POST', '/api/v1/auth/sign-in', {
    body: { email: 'owner@logs.test', password: 'wrong password, logged?' },
  });
  await call(app, 'POST', '/api/v1/auth/sign-in', {
    body: { email: 'desk@logs.test', password: 'wrong password, logged?' },
  });
  const signedIn = await call(app, 'POST', '/api/v1/auth/sign-in', {
    body: { email: 'owner@logs.test', password: GOOD_PASSWORD },
  });
  secrets.push(cookieOf(signedIn).split('=')[1]);
  await call(
    app,
    'POST',
    '/api/v1/staff/invitations',
    as(cookie, { body: { email: 'desk@logs.test', role: 'front_desk' } }),
  );
  secrets.push(await mailedToken(smtp, 'desk@logs.test'));
  const key = await call(
    app,
    'POST',
    '/api/v1/api-keys',
    as(cookie, { body: { name: 'Till', scopes: ['merchant:read'] } }),
  );
  secrets.push(key.body.key);
  await call(app, 'GET', '/api/v1/bookings/units', { token: key.body.key, query: { store_id: store.id } });
  await call(app, 'GET', '/api/v1/auth/sessions', as(cookie));
  await call(app, 'POST', '/api/v1/auth/sign-out', as(cookie));
  await call(app, 'GET', '/api/v1/auth/me', as(cookie));

  assert.ok(lines.length > 20, `the log was written (${lines.length} lines)`);
  const log = lines.join('');
  for (const secret of secrets)
    assert.ok(!log.includes(secret), `the log holds a secret or address (${secret.slice(0, 4)}...)`);
  assert.doesNotMatch(log, /bbo_session=|bbo_live_/);
});
