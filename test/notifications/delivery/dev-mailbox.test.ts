// The development mailbox (issue 41): with no SMTP_URL outside production a sign-in code is kept
// where the console shows the merchant, only until it expires; production never keeps one, and its
// booking page says it cannot sign anyone in (page.sign_in 'none') instead of pretending to send.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../../support/http.ts';
import { shop, setStore } from '../../bookings/online/helpers.ts';
import { startSmtp } from '../../notifications/messages/support.ts';
import { BOOK, SLUG, solved } from '../../booking-page/support.ts';
import type { TestAppOptions } from '../../support/app.ts';

const MAILBOX = '/api/v1/dev/mailbox';
const DELIVERY = '/api/v1/notifications/delivery';

async function pageShopWith(env: Record<string, string>) {
  const w = await shop({ app: { env } as TestAppOptions });
  await setStore(w.t, w.storeId, { booking_page_slug: SLUG, booking_page_enabled: true });
  return w;
}

async function mailboxCodes(w: Awaited<ReturnType<typeof pageShopWith>>, token = w.merchant) {
  for (let i = 0; i < 200; i++) {
    const res = await call(w.t.app, 'GET', MAILBOX, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const codes = res.body.messages.filter((m: any) => m.source === 'sign_in_code');
    if (codes.length) return { res, codes };
    await new Promise((r) => setTimeout(r, 25));
  }
  return { res: await call(w.t.app, 'GET', MAILBOX, { token }), codes: [] as any[] };
}

const keptRows = async (w: Awaited<ReturnType<typeof pageShopWith>>) =>
  (await w.t.db.query('SELECT count(*)::int AS n FROM dev_mailbox')).rows[0].n as number;

test('no SMTP_URL outside production: the code goes to the development mailbox, the merchant reads it and books with it', async () => {
  const w = await pageShopWith({});
  const page = await call(w.t.app, 'GET', BOOK);
  assert.equal(page.status, 200);
  assert.equal(page.body.page.sign_in, 'email');
  const delivery = await call(w.t.app, 'GET', DELIVERY, { token: w.merchant });
  assert.deepEqual(delivery.body, { email: 'dev_mailbox', sms: 'none', sign_in: 'email', dev_mailbox: true });

  const sent = await call(w.t.app, 'POST', `${BOOK}/email-code`, {
    body: { email: 'Newcomer@Example.com', altcha: await solved(w.t.app) },
  });
  assert.equal(sent.status, 200);
  const { res, codes } = await mailboxCodes(w);
  assert.equal(res.body.development_only, true);
  assert.equal(codes.length, 1);
  const kept = codes[0];
  assert.equal(kept.to, 'newcomer@example.com');
  assert.equal(kept.channel, 'email');
  assert.equal(kept.expires_at, '2026-06-01T09:10:00.000Z');
  const code = /\b(\d{6})\b/.exec(kept.text)![1];
  assert.match(kept.subject, new RegExp(code));

  const verified = await call(w.t.app, 'POST', `${BOOK}/email-code/verify`, {
    body: { email: 'newcomer@example.com', code, name: 'New' },
  });
  assert.equal(verified.status, 200, JSON.stringify(verified.body));
  assert.equal(verified.body.customer.email, 'newcomer@example.com');
});

test('a kept code lives only until it expires: then it is neither shown nor kept', async () => {
  const w = await pageShopWith({});
  await call(w.t.app, 'POST', `${BOOK}/email-code`, {
    body: { email: 'brief@example.com', altcha: await solved(w.t.app) },
  });
  assert.equal((await mailboxCodes(w)).codes.length, 1);
  assert.equal(await keptRows(w), 1);
  w.t.clock.advance(600_000);
  const after = await call(w.t.app, 'GET', MAILBOX, { token: w.merchant });
  assert.equal(after.status, 200);
  assert.deepEqual(
    after.body.messages.filter((m: any) => m.source === 'sign_in_code'),
    [],
  );
  assert.equal(await keptRows(w), 0, 'the expired code is deleted');
});

test('an expired code is deleted when the next one is kept, even if nobody read the mailbox', async () => {
  const w = await pageShopWith({});
  await call(w.t.app, 'POST', `${BOOK}/email-code`, {
    body: { email: 'first@example.com', altcha: await solved(w.t.app) },
  });
  for (let i = 0; i < 200 && (await keptRows(w)) === 0; i++) await new Promise((r) => setTimeout(r, 25));
  w.t.clock.advance(601_000);
  await call(w.t.app, 'POST', `${BOOK}/email-code`, {
    body: { email: 'second@example.com', altcha: await solved(w.t.app) },
  });
  for (let i = 0; i < 200; i++) {
    const rows = (await w.t.db.query('SELECT to_address FROM dev_mailbox')).rows;
    if (rows.length === 1 && rows[0].to_address === 'second@example.com') return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail('the expired code is still kept');
});

test("another store's merchant never sees the code; a customer token cannot read the mailbox", async () => {
  const w = await pageShopWith({});
  await call(w.t.app, 'POST', `${BOOK}/email-code`, {
    body: { email: 'mine@example.com', altcha: await solved(w.t.app) },
  });
  assert.equal((await mailboxCodes(w)).codes.length, 1);
  const other = await w.t.fx.store();
  const otherMerchant = await w.t.fx.merchantToken(other.id);
  const theirs = await call(w.t.app, 'GET', MAILBOX, { token: otherMerchant });
  assert.equal(theirs.status, 200);
  assert.deepEqual(theirs.body.messages, []);
  const asCustomer = await call(w.t.app, 'GET', MAILBOX, { token: w.customer });
  assert.equal(asCustomer.status, 403);
});

test('production with no sender: sign_in none, sending a code is refused and nothing is kept; no mailbox route', async () => {
  const w = await pageShopWith({ NODE_ENV: 'production' });
  const page = await call(w.t.app, 'GET', BOOK);
  assert.equal(page.body.page.sign_in, 'none');
  const delivery = await call(w.t.app, 'GET', DELIVERY, { token: w.merchant });
  assert.deepEqual(delivery.body, { email: 'none', sms: 'none', sign_in: 'none', dev_mailbox: false });
  const sent = await call(w.t.app, 'POST', `${BOOK}/email-code`, {
    body: { email: 'lost@example.com', altcha: await solved(w.t.app) },
  });
  assert.equal(sent.status, 503);
  assert.equal(errorCode(sent), 'SIGN_IN_UNAVAILABLE');
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(await keptRows(w), 0);
  assert.equal((await w.t.db.query('SELECT count(*)::int AS n FROM email_codes')).rows[0].n, 0);
  const mailbox = await call(w.t.app, 'GET', MAILBOX, { token: w.merchant });
  assert.equal(mailbox.status, 404);
  assert.equal(errorCode(mailbox), 'ROUTE_NOT_FOUND');
});

test('with SMTP_URL the code is mailed and never kept in the mailbox', async () => {
  const smtp = await startSmtp();
  const w = await pageShopWith({ SMTP_URL: smtp.url, MAIL_FROM: 'Shop <shop@shop.example>' });
  w.t.onClose(() => smtp.close());
  assert.equal((await call(w.t.app, 'GET', BOOK)).body.page.sign_in, 'email');
  const sent = await call(w.t.app, 'POST', `${BOOK}/email-code`, {
    body: { email: 'real@example.com', altcha: await solved(w.t.app) },
  });
  assert.equal(sent.status, 200);
  for (let i = 0; i < 200 && !smtp.received.length; i++) await new Promise((r) => setTimeout(r, 25));
  assert.equal(smtp.received.length, 1);
  assert.equal(await keptRows(w), 0);
  const delivery = await call(w.t.app, 'GET', DELIVERY, { token: w.merchant });
  assert.equal(delivery.body.dev_mailbox, false);
});
