// A staff-accounts app: invitation mail caught by a real SMTP server on loopback, the common-password
// list a small fixture (the published list is the package's; test/staff/common-passwords.test.ts).
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestApp, ADMIN_TOKEN, type TestApp } from '../support/app.ts';
import { call, type CallOptions, type CallResult } from '../support/http.ts';
import { startSmtp, type SmtpStub } from '../notifications/messages/support.ts';

export const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'common-passwords.fixture.txt');
export const GOOD_PASSWORD = 'correct horse battery staple';

export interface StaffTestApp extends TestApp {
  smtp: SmtpStub;
}

export async function startStaffApp(env: Record<string, string> = {}): Promise<StaffTestApp> {
  const smtp = await startSmtp();
  const t = await startTestApp({ env: { SMTP_URL: smtp.url, STAFF_COMMON_PASSWORDS_FILE: FIXTURE, ...env } });
  t.onClose(() => smtp.close());
  return { ...t, smtp };
}

/** The bbo_session cookie a Set-Cookie header carries, as a Cookie header. */
export function cookieOf(result: CallResult): string {
  const raw = result.headers['set-cookie'];
  const all = Array.isArray(raw) ? raw : [String(raw ?? '')];
  const match = all.map((c) => /^bbo_session=([A-Za-z0-9_-]+)/.exec(c)).find(Boolean);
  assert.ok(match, `a session cookie in ${JSON.stringify(raw)}`);
  return `bbo_session=${match![1]}`;
}

/** A call with a session cookie. */
export function as(cookie: string, options: CallOptions = {}): CallOptions {
  return { ...options, headers: { cookie, ...options.headers } };
}

/** The token of the newest invitation mailed to `to` (from the link's fragment). */
export async function mailedToken(smtp: SmtpStub, to: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const mail = smtp.received.filter((r) => r.to.includes(to)).at(-1);
    const match = mail && /#token=([A-Za-z0-9_-]+)/.exec(String(mail.mail.text));
    if (match) return match[1];
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no invitation mailed to ${to}`);
}

/** Invites through the operator's route, accepts, and answers the new person's cookie and id. */
export async function ownerOf(t: StaffTestApp, storeId: string, email = 'owner@shop.test', name = 'Olive Owner') {
  const sent = await call(t.app, 'POST', `/admin/v1/stores/${storeId}/staff/invitations`, {
    token: ADMIN_TOKEN,
    body: { email, role: 'owner' },
  });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  return accept(t, await mailedToken(t.smtp, email), name);
}

export async function accept(t: StaffTestApp, token: string, name: string, password = GOOD_PASSWORD) {
  const res = await call(t.app, 'POST', '/api/v1/auth/invitations/accept', { body: { token, name, password } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { cookie: cookieOf(res), id: res.body.staff.id as string, body: res.body };
}

/** An owner (or anyone allowed) invites a person with a role; they accept. */
export async function member(
  t: StaffTestApp,
  inviter: string,
  input: { email: string; role: string; name?: string; unit_id?: string; permissions?: string[] },
) {
  const { name, ...body } = input;
  const sent = await call(t.app, 'POST', '/api/v1/staff/invitations', as(inviter, { body }));
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  return accept(t, await mailedToken(t.smtp, input.email), name ?? 'Sam Staff');
}
