// With REDIS_URL set, two processes share the booking page's send budgets and spent challenges
// through Redis (REDIS_TEST_URL, which .ci/run sets; skipped without it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { errorCode } from '../support/http.ts';
import { startSmtp } from '../notifications/messages/support.ts';
import { BOOK, callFrom, pageShop, solved } from './support.ts';

const redisUrl = process.env.REDIS_TEST_URL;
const skip = !redisUrl && 'REDIS_TEST_URL is not set';

test('two processes share the send budget per email and the spent challenges through Redis', { skip }, async () => {
  const smtp = await startSmtp();
  const env = { REDIS_URL: redisUrl! };
  const a = await pageShop({ smtp, app: { env } });
  const b = await pageShop({ smtp, app: { env } });
  // Keys outlive this run in Redis (an hour): an email and an address of this run only.
  const run = randomBytes(4).toString('hex');
  const email = `shared-${run}@example.com`;
  const ip = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${(randomBytes(1)[0] % 250) + 1}`;
  const send = async (w: typeof a, altcha?: string) =>
    callFrom(w.t.app, 'POST', `${BOOK}/email-code`, ip, { body: { email, altcha: altcha ?? (await solved(w.t.app)) } });
  for (let i = 0; i < 3; i++) assert.equal((await send(a)).status, 200);
  for (let i = 0; i < 2; i++) assert.equal((await send(b)).status, 200);
  const sixth = await send(a);
  assert.equal(sixth.status, 429, JSON.stringify(sixth.body));
  assert.equal(errorCode(sixth), 'TOO_MANY_CODES');
  assert.ok(Number(sixth.headers['retry-after']) > 0);

  // A payload spent on one process is spent on the other (same AUTH_SECRET, same challenge key).
  const payload = await solved(a.t.app);
  const other = `other-${run}@example.com`;
  const first = await callFrom(a.t.app, 'POST', `${BOOK}/email-code`, ip.replace(/\.\d+$/, '.251'), {
    body: { email: other, altcha: payload },
  });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const replay = await callFrom(b.t.app, 'POST', `${BOOK}/email-code`, ip.replace(/\.\d+$/, '.252'), {
    body: { email: other, altcha: payload },
  });
  assert.equal(replay.status, 400);
  assert.equal(errorCode(replay), 'CHALLENGE_FAILED');
  // Redis keeps them, not the table.
  assert.equal((await a.t.db.query('SELECT count(*)::int AS n FROM spent_challenges')).rows[0].n, 0);
  await smtp.close();
});
