import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { cookieFrom, staffMember } from '../passkeys/staff-fixtures.ts';
import { CLIENT_ID, CLIENT_SECRET, followProvider, startOidcProvider } from './oidc-provider-stub.ts';

const PUBLIC_URL = 'http://127.0.0.1:39123';
const provider = await startOidcProvider(`${PUBLIC_URL}/api/v1/auth/oidc/callback`);
const t = await startTestApp({
  env: { PUBLIC_URL, OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET },
});
t.onClose(() => provider.close());
const store = await t.fx.store();

/** The whole round: start here, sign in at the provider, come back. Answers the callback's answer. */
async function signInThroughProvider(
  user: Partial<typeof provider.user>,
  options: { query?: Record<string, string>; keepCookie?: boolean } = {},
) {
  provider.user = { sub: 'user-1', email: 'sam@example.test', email_verified: true, name: 'Sam Taylor', ...user };
  const start = await call(t.app, 'GET', '/api/v1/auth/oidc/start', { query: options.query });
  assert.equal(start.status, 302, JSON.stringify(start.body));
  const browser = /bbo_oidc=([^;]+)/.exec(String(start.headers['set-cookie']))![1];
  const back = new URL(await followProvider(String(start.headers.location), provider.issuer));
  assert.equal(`${back.origin}${back.pathname}`, `${PUBLIC_URL}/api/v1/auth/oidc/callback`);
  const callback = () =>
    t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: options.keepCookie === false ? {} : { cookie: `bbo_oidc=${browser}` },
    });
  return { res: await callback(), again: callback };
}

async function liveSessions(email: string): Promise<number> {
  const res = await t.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM staff_sessions s JOIN staff_people p ON p.id = s.staff_id WHERE lower(p.email) = $1 AND s.ended_at IS NULL`,
    [email],
  );
  return res.rows[0].n;
}

async function invite(email: string, fields: { role?: string; expiresAt?: string } = {}) {
  await t.db.query(
    `INSERT INTO staff_invitations (store_id, email, name, role, permissions, token_hash, expires_at, created_at)
     VALUES ($1, $2, 'Invited Person', $3, '{can_process_payments}', $4, $5, $6)`,
    [
      store.id,
      email,
      fields.role ?? 'front_desk',
      randomBytes(32),
      fields.expiresAt ?? '2026-06-04T09:00:00Z',
      t.clock.now(),
    ],
  );
}

test('the sign-in page learns that OIDC is on from GET /api/v1/auth/options', async () => {
  const res = await call(t.app, 'GET', '/api/v1/auth/options');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { password: true, passkey: true, oidc: true });
});

test('start redirects to the provider with PKCE (S256), state, nonce and our callback, and keeps the verifier here', async () => {
  const res = await call(t.app, 'GET', '/api/v1/auth/oidc/start');
  assert.equal(res.status, 302);
  const url = new URL(String(res.headers.location));
  assert.equal(url.origin, provider.issuer);
  assert.equal(url.searchParams.get('client_id'), CLIENT_ID);
  assert.equal(url.searchParams.get('redirect_uri'), `${PUBLIC_URL}/api/v1/auth/oidc/callback`);
  assert.equal(url.searchParams.get('response_type'), 'code');
  assert.equal(url.searchParams.get('scope'), 'openid email profile');
  assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
  assert.match(url.searchParams.get('code_challenge')!, /^[A-Za-z0-9_-]{43}$/);
  const state = url.searchParams.get('state')!;
  const row = await t.db.query(`SELECT nonce, store_id, expires_at FROM staff_oidc_logins WHERE state = $1`, [state]);
  assert.deepEqual(row.rows, [
    { nonce: url.searchParams.get('nonce'), store_id: null, expires_at: '2026-06-01T09:10:00.000Z' },
  ]);
  assert.match(
    String(res.headers['set-cookie']),
    /^bbo_oidc=[A-Za-z0-9_-]{43}; Path=\/api\/v1\/auth\/oidc; HttpOnly; SameSite=Lax; Max-Age=600$/,
  );
});

test('a verified email of a staff member signs them in: a new session, then the console', async () => {
  const m = await staffMember(t.db, { storeId: store.id, email: 'member@example.test', at: t.clock.now() });
  const before = await liveSessions('member@example.test');
  const { res, again } = await signInThroughProvider({ sub: 'member', email: 'Member@Example.test' });
  assert.equal(res.statusCode, 302, res.body);
  assert.equal(res.headers.location, `${PUBLIC_URL}/console/`);
  const cookie = cookieFrom(res.headers['set-cookie']);
  assert.ok(cookie && cookie !== m.cookie);
  assert.equal(await liveSessions('member@example.test'), before + 1);
  const signedIn = await call(t.app, 'GET', '/api/v1/auth/passkeys', { headers: { cookie: cookie! } });
  assert.equal(signedIn.status, 200);
  // The same callback again: the started sign-in was used.
  const replay = await again();
  assert.equal(replay.headers.location, `${PUBLIC_URL}/console/#oidc_error=expired`);
  assert.equal(cookieFrom(replay.headers['set-cookie']), null);
  assert.equal(await liveSessions('member@example.test'), before + 1);
});

test("a callback in another browser (without the start's cookie) signs nobody in", async () => {
  await staffMember(t.db, { storeId: store.id, email: 'elsewhere@example.test', at: t.clock.now() });
  const { res } = await signInThroughProvider(
    { sub: 'elsewhere', email: 'elsewhere@example.test' },
    { keepCookie: false },
  );
  assert.equal(res.headers.location, `${PUBLIC_URL}/console/#oidc_error=expired`);
  assert.equal(await liveSessions('elsewhere@example.test'), 1);
});

test('an email the provider has not verified signs nobody in', async () => {
  await staffMember(t.db, { storeId: store.id, email: 'unverified@example.test', at: t.clock.now() });
  const { res } = await signInThroughProvider({
    sub: 'unverified',
    email: 'unverified@example.test',
    email_verified: false,
  });
  assert.equal(res.headers.location, `${PUBLIC_URL}/console/#oidc_error=unverified_email`);
  assert.equal(await liveSessions('unverified@example.test'), 1);
});

test('OIDC never creates an account: an unknown email gets no_account and no person', async () => {
  const { res } = await signInThroughProvider({ sub: 'stranger', email: 'stranger@example.test' });
  assert.equal(res.headers.location, `${PUBLIC_URL}/console/#oidc_error=no_account`);
  const people = await t.db.query(`SELECT count(*)::int AS n FROM staff_people WHERE email = 'stranger@example.test'`);
  assert.equal(people.rows[0].n, 0);
});

test('a pending invitation to the email is accepted: the person joins with the invited role and is signed in', async () => {
  await invite('invitee@example.test', { role: 'manager' });
  const { res } = await signInThroughProvider({ sub: 'invitee', email: 'invitee@example.test', name: 'Ivy Invitee' });
  assert.equal(res.headers.location, `${PUBLIC_URL}/console/`);
  assert.ok(cookieFrom(res.headers['set-cookie']));
  const member = await t.db.query(
    `SELECT p.name, m.role, m.permissions, m.disabled FROM staff_memberships m JOIN staff_people p ON p.id = m.staff_id
      WHERE p.email = 'invitee@example.test' AND m.store_id = $1`,
    [store.id],
  );
  assert.deepEqual(member.rows, [
    { name: 'Invited Person', role: 'manager', permissions: ['can_process_payments'], disabled: false },
  ]);
  const inv = await t.db.query(`SELECT accepted_at FROM staff_invitations WHERE email = 'invitee@example.test'`);
  assert.equal(inv.rows[0].accepted_at, t.clock.now().toISOString());
  assert.equal(await liveSessions('invitee@example.test'), 1);
  const audited = await t.db.query(
    `SELECT a.actor_name, a.details->>'role' AS role, a.details->>'via' AS via FROM audit_log a JOIN staff_people p ON p.id::text = a.entity_id
      WHERE a.action = 'staff.joined' AND p.email = 'invitee@example.test'`,
  );
  assert.deepEqual(audited.rows, [{ actor_name: 'Invited Person', role: 'manager', via: 'oidc' }]);
});

test('an expired invitation is not accepted', async () => {
  await invite('late@example.test', { expiresAt: '2026-06-01T08:59:59Z' });
  const { res } = await signInThroughProvider({ sub: 'late', email: 'late@example.test' });
  assert.equal(res.headers.location, `${PUBLIC_URL}/console/#oidc_error=no_account`);
  const people = await t.db.query(`SELECT count(*)::int AS n FROM staff_people WHERE email = 'late@example.test'`);
  assert.equal(people.rows[0].n, 0);
});

test('a disabled member is not signed in', async () => {
  const m = await staffMember(t.db, { storeId: store.id, email: 'off@example.test', at: t.clock.now() });
  await t.db.query(`UPDATE staff_memberships SET disabled = true WHERE staff_id = $1`, [m.staffId]);
  const { res } = await signInThroughProvider({ sub: 'off', email: 'off@example.test' });
  assert.equal(res.headers.location, `${PUBLIC_URL}/console/#oidc_error=no_account`);
  assert.equal(cookieFrom(res.headers['set-cookie']), null);
});

test('without OIDC_* the options say so and start is 404 OIDC_NOT_CONFIGURED', async () => {
  const plain = await startTestApp();
  assert.deepEqual((await call(plain.app, 'GET', '/api/v1/auth/options')).body, {
    password: true,
    passkey: true,
    oidc: false,
  });
  const res = await call(plain.app, 'GET', '/api/v1/auth/oidc/start');
  assert.equal(res.status, 404);
  assert.equal(res.body.error.code, 'OIDC_NOT_CONFIGURED');
});
