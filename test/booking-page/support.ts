// Shared by the booking page tests: a shop with its page on (the online booking helpers' shop), a
// real SMTP server for the codes, and short ways to solve a challenge, hold, sign in and confirm.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { call, type CallResult } from '../support/http.ts';
import { shop, setStore, type Shop, type ShopOptions } from '../bookings/online/helpers.ts';
import { startSmtp, type SmtpStub } from '../notifications/messages/support.ts';
import type { App } from '../../src/app.ts';

export const SLUG = 'test-salon';
export const BOOK = `/api/v1/book/${SLUG}`;

export interface PageShop extends Shop {
  smtp: SmtpStub;
  slug: string;
}

/** A shop (2026-06-01 09:00Z, hours 09:00-17:00 London) with its page enabled and mail to a real SMTP server. */
export async function pageShop(o: ShopOptions & { slug?: string; smtp?: SmtpStub } = {}): Promise<PageShop> {
  const smtp = o.smtp ?? (await startSmtp());
  const env = { SMTP_URL: smtp.url, MAIL_FROM: 'Bookings <bookings@shop.example>', ...(o.app?.env ?? {}) };
  const w = await shop({ ...o, app: { ...o.app, env } });
  const slug = o.slug ?? SLUG;
  await setStore(w.t, w.storeId, { booking_page_slug: slug, booking_page_enabled: true });
  if (!o.smtp) w.t.onClose(() => smtp.close());
  return { ...w, smtp, slug };
}

/** Asks the page for a challenge and solves it as the widget would; returns the widget's payload. */
export async function solved(app: App, slug = SLUG): Promise<string> {
  const c = await call(app, 'GET', `/api/v1/book/${slug}/challenge`);
  assert.equal(c.status, 200, JSON.stringify(c.body));
  assert.equal(c.body.algorithm, 'SHA-256');
  // The widget's search (SHA-256 of salt + number), done synchronously: altcha-lib's own solver awaits
  // WebCrypto per try, seconds per challenge on a loaded test machine.
  let number = -1;
  for (let n = 0; n <= c.body.maxnumber; n++) {
    if (
      createHash('sha256')
        .update(c.body.salt + n)
        .digest('hex') === c.body.challenge
    ) {
      number = n;
      break;
    }
  }
  assert.ok(number >= 0, 'challenge solved');
  const payload = {
    algorithm: c.body.algorithm,
    challenge: c.body.challenge,
    number,
    salt: c.body.salt,
    signature: c.body.signature,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

export interface HoldOptions {
  session?: string;
  unitId?: string | null;
  altcha?: string;
  website?: string;
  ip?: string;
  app?: App;
  /** More of the hold's body: variant_id, addon_ids, party_size. */
  body?: Record<string, unknown>;
}

export async function pageHold(w: PageShop, startsAt: string, o: HoldOptions = {}): Promise<CallResult> {
  const app = o.app ?? w.t.app;
  const altcha = o.altcha ?? (await solved(app, w.slug));
  const headers: Record<string, string> = {};
  if (o.session) headers['x-page-session'] = o.session;
  return callFrom(app, 'POST', `/api/v1/book/${w.slug}/holds`, o.ip, {
    headers,
    body: {
      service_id: w.serviceId,
      unit_id: o.unitId === undefined ? null : o.unitId,
      starts_at: startsAt,
      altcha,
      ...(o.website !== undefined ? { website: o.website } : {}),
      ...o.body,
    },
  });
}

/** A call from a given client address (app.inject's remoteAddress). */
export async function callFrom(
  app: App,
  method: string,
  url: string,
  ip: string | undefined,
  options: Parameters<typeof call>[3] = {},
): Promise<CallResult> {
  if (!ip) return call(app, method, url, options);
  const res = await app.inject({
    method: method as any,
    url,
    remoteAddress: ip,
    headers: { ...options.headers },
    ...(options.body !== undefined ? { payload: options.body as any } : {}),
  });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null, headers: res.headers as any };
}

/** Waits for the next mail to this address and returns the 6-digit code in it. */
export async function codeFor(w: PageShop, email: string, before = 0): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const mails = w.smtp.received.filter((m) => m.to.includes(email));
    if (mails.length > before) {
      const match = /\b(\d{6})\b/.exec(mails[mails.length - 1].mail.text ?? '');
      assert.ok(match, 'the mail carries a 6-digit code');
      return match[1];
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no code mail reached ${email}`);
}

export async function sendCode(w: PageShop, email: string, ip?: string): Promise<CallResult> {
  return callFrom(w.t.app, 'POST', `${BOOK.replace(SLUG, w.slug)}/email-code`, ip, {
    body: { email, altcha: await solved(w.t.app, w.slug) },
  });
}

/** Signs in by email code; returns the customer token and id. */
export async function signIn(
  w: PageShop,
  email: string,
  extra: { name?: string; phone?: string } = {},
): Promise<{ token: string; customerId: string }> {
  const before = w.smtp.received.filter((m) => m.to.includes(email)).length;
  const sent = await sendCode(w, email);
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const code = await codeFor(w, email, before);
  const res = await call(w.t.app, 'POST', `/api/v1/book/${w.slug}/email-code/verify`, {
    body: { email, code, ...extra },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { token: res.body.token, customerId: res.body.customer.id };
}

export { call, setStore };
