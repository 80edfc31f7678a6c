import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call, errorCode } from '../support/http.ts';

const { app, fx } = await startTestApp({ env: { RATE_LIMIT_PREFERENCES_PER_MIN: '2' } });

test('the preference list is rate limited per customer: 429 RATE_LIMITED in the envelope', async () => {
  const me = await fx.customer();
  const token = await fx.customerToken(me.id);
  assert.equal((await call(app, 'GET', '/api/v1/notifications/preferences', { token })).status, 200);
  assert.equal((await call(app, 'GET', '/api/v1/notifications/preferences', { token })).status, 200);
  const limited = await call(app, 'GET', '/api/v1/notifications/preferences', { token });
  assert.equal(limited.status, 429);
  assert.equal(errorCode(limited), 'RATE_LIMITED');
  assert.ok(limited.headers['retry-after'], 'Retry-After is sent');

  // The budget is the customer's own: someone else is still served.
  const other = await fx.customer();
  const theirs = await call(app, 'GET', '/api/v1/notifications/preferences', {
    token: await fx.customerToken(other.id),
  });
  assert.equal(theirs.status, 200);
});
