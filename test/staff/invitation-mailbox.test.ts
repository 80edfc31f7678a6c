// A staff invitation reaches the development mailbox like every other message (issue 41): with no
// SMTP_URL outside production it is kept there for its store's console, only until its link expires,
// a newer invitation to the same person replacing it; production keeps nothing, and with SMTP_URL it
// is mailed and not kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestApp } from '../support/app.ts';
import { call } from '../support/http.ts';
import { startSmtp } from '../notifications/messages/support.ts';
import { FIXTURE, GOOD_PASSWORD, mailedToken } from './support.ts';

const MAILBOX = '/api/v1/dev/mailbox';

async function app(env: Record<string, string>) {
  const t = await startTestApp({ env: { STAFF_COMMON_PASSWORDS_FILE: FIXTURE, ...env } });
  const store = await t.fx.store({ name: 'Fade Barbers' });
  return { t, store, merchant: await t.fx.merchantToken(store.id) };
}
const invite = (t: Awaited<ReturnType<typeof app>>['t'], storeId: string, email: string) =>
  call(t.app, 'POST', `/admin/v1/stores/${storeId}/staff/invitations`, {
    token: ADMIN_TOKEN,
    body: { email, role: 'owner' },
  });
const kept = async (t: Awaited<ReturnType<typeof app>>['t']) =>
  (await t.db.query('SELECT kind, store_id, to_address, expires_at FROM dev_mailbox')).rows;

test("no SMTP_URL outside production: the invitation is in the store's mailbox until it expires, and its link accepts", async () => {
  const { t, store, merchant } = await app({});
  const sent = await invite(t, store.id, 'Olive@Shop.test');
  assert.equal(sent.status, 200, JSON.stringify(sent.body));

  const res = await call(t.app, 'GET', MAILBOX, { token: merchant });
  assert.equal(res.status, 200);
  const invitations = res.body.messages.filter((m: any) => m.source === 'staff_invitation');
  assert.equal(invitations.length, 1);
  const mail = invitations[0];
  assert.equal(mail.kind, 'staff_invitation');
  assert.equal(mail.channel, 'email');
  assert.equal(mail.to, 'olive@shop.test');
  assert.equal(mail.subject, 'Join Fade Barbers as owner');
  assert.equal(mail.expires_at, sent.body.invitation.expires_at, 'kept as long as the link works (72 hours)');
  const token = /#token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  assert.ok(token, 'the accept link is in the message');

  // A newer invitation to the same person replaces the kept one (the old link no longer works).
  await invite(t, store.id, 'olive@shop.test');
  const again = (await call(t.app, 'GET', MAILBOX, { token: merchant })).body.messages.filter(
    (m: any) => m.source === 'staff_invitation',
  );
  assert.equal(again.length, 1);
  assert.notEqual(/#token=([A-Za-z0-9_-]+)/.exec(again[0].text)?.[1], token);
  const fresh = /#token=([A-Za-z0-9_-]+)/.exec(again[0].text)![1];
  const accepted = await call(t.app, 'POST', '/api/v1/auth/invitations/accept', {
    body: { token: fresh, name: 'Olive Owner', password: GOOD_PASSWORD },
  });
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));

  // Another store's console never sees it.
  const other = await t.fx.store({ name: 'Elsewhere' });
  const theirs = await call(t.app, 'GET', MAILBOX, { token: await t.fx.merchantToken(other.id) });
  assert.deepEqual(theirs.body.messages, []);
});

test('production with no SMTP_URL: the invitation is neither sent nor kept', async () => {
  const { t, store } = await app({ NODE_ENV: 'production' });
  const sent = await invite(t, store.id, 'olive@shop.test');
  assert.equal(sent.status, 200);
  assert.deepEqual(await kept(t), []);
});

test('with SMTP_URL the invitation is mailed and not kept in the mailbox', async () => {
  const smtp = await startSmtp();
  const { t, store, merchant } = await app({ SMTP_URL: smtp.url });
  t.onClose(() => smtp.close());
  assert.equal((await invite(t, store.id, 'olive@shop.test')).status, 200);
  assert.match(await mailedToken(smtp, 'olive@shop.test'), /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(await kept(t), []);
  assert.equal((await call(t.app, 'GET', MAILBOX, { token: merchant })).status, 200);
});
