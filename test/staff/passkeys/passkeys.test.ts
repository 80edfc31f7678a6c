import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { hasPasskey } from '../../../src/staff/passkeys/passkeys.service.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';
import { cookieFrom, staffMember } from './staff-fixtures.ts';

const ORIGIN = 'https://shop.example.test';
const t = await startTestApp({ env: { PUBLIC_URL: ORIGIN } });
const store = await t.fx.store();
const P = '/api/v1/auth/passkeys';
const own = { origin: ORIGIN };

async function member(email: string) {
  return staffMember(t.db, { storeId: store.id, email, at: t.clock.now() });
}

async function register(cookie: string, key: SoftAuthenticator, name = 'Work laptop') {
  const options = await call(t.app, 'POST', `${P}/registration/options`, { headers: { cookie, ...own }, body: {} });
  assert.equal(options.status, 200, JSON.stringify(options.body));
  return call(t.app, 'POST', `${P}/registration/verify`, {
    headers: { cookie, ...own },
    body: { name, credential: key.register(options.body) },
  });
}

async function signIn(
  key: SoftAuthenticator,
  tweak: Parameters<SoftAuthenticator['authenticate']>[1] = {},
  body: Record<string, unknown> = {},
) {
  const options = await call(t.app, 'POST', `${P}/authentication/options`, { headers: own, body: {} });
  assert.equal(options.status, 200, JSON.stringify(options.body));
  return {
    options: options.body,
    res: await call(t.app, 'POST', `${P}/authentication/verify`, {
      headers: own,
      body: { ...body, credential: key.authenticate(options.body, tweak) },
    }),
  };
}

test('registration options name the relying party from PUBLIC_URL, ask for a discoverable passkey and exclude the ones already added', async () => {
  const m = await member('opts@example.test');
  const res = await call(t.app, 'POST', `${P}/registration/options`, {
    headers: { cookie: m.cookie, ...own },
    body: {},
  });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.rp, { name: 'Back office', id: 'shop.example.test' });
  assert.equal(res.body.user.name, 'opts@example.test');
  assert.equal(res.body.user.id, Buffer.from(m.staffId.replace(/-/g, ''), 'hex').toString('base64url'));
  assert.equal(res.body.authenticatorSelection.residentKey, 'required');
  assert.deepEqual(res.body.excludeCredentials, []);
  assert.equal(res.body.timeout, 300_000);
  const stored = await t.db.query(
    `SELECT purpose, staff_id, store_id, expires_at FROM staff_webauthn_challenges WHERE challenge = $1`,
    [res.body.challenge],
  );
  assert.deepEqual(stored.rows, [
    {
      purpose: 'register',
      staff_id: m.staffId,
      store_id: store.id,
      expires_at: new Date(t.clock.now().getTime() + 300_000).toISOString(),
    },
  ]);
});

test('adding a passkey needs a staff session, and refuses a request from another origin', async () => {
  const none = await call(t.app, 'POST', `${P}/registration/options`, { headers: own, body: {} });
  assert.equal(none.status, 401);
  assert.equal(none.body.error.code, 'UNAUTHENTICATED');
  const jwt = await call(t.app, 'POST', `${P}/registration/options`, {
    token: await t.fx.merchantToken(store.id),
    headers: own,
    body: {},
  });
  assert.equal(jwt.status, 401);
  const m = await member('cross@example.test');
  const cross = await call(t.app, 'POST', `${P}/registration/options`, {
    headers: { cookie: m.cookie, origin: 'https://evil.example' },
    body: {},
  });
  assert.equal(cross.status, 403);
  assert.equal(cross.body.error.code, 'CROSS_ORIGIN_REFUSED');
  const rows = await t.db.query(`SELECT count(*)::int AS n FROM staff_webauthn_challenges WHERE staff_id = $1`, [
    m.staffId,
  ]);
  assert.equal(rows.rows[0].n, 0);
});

test('a passkey is added with options then verify, listed, and hasPasskey then says so', async () => {
  const m = await member('add@example.test');
  assert.equal(await hasPasskey(t.db, m.staffId), false);
  const key = new SoftAuthenticator(ORIGIN, 'shop.example.test');
  const res = await register(m.cookie, key);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body, {
    id: key.id,
    name: 'Work laptop',
    created_at: t.clock.now().toISOString(),
    last_used_at: null,
  });
  const row = await t.db.query(
    `SELECT staff_id, counter, transports, last_used_at FROM staff_passkeys WHERE credential_id = $1`,
    [key.id],
  );
  assert.deepEqual(row.rows, [{ staff_id: m.staffId, counter: 0, transports: ['internal'], last_used_at: null }]);
  assert.equal(await hasPasskey(t.db, m.staffId), true);
  const list = await call(t.app, 'GET', P, { headers: { cookie: m.cookie } });
  assert.deepEqual(
    list.body.passkeys.map((p: { id: string }) => p.id),
    [key.id],
  );
  // A second registration excludes the first.
  const again = await call(t.app, 'POST', `${P}/registration/options`, {
    headers: { cookie: m.cookie, ...own },
    body: {},
  });
  assert.deepEqual(again.body.excludeCredentials, [{ id: key.id, type: 'public-key', transports: ['internal'] }]);
});

test('a registration challenge is single use, expires after five minutes and belongs to the person who asked', async () => {
  const m = await member('once@example.test');
  const key = new SoftAuthenticator(ORIGIN, 'shop.example.test');
  const options = await call(t.app, 'POST', `${P}/registration/options`, {
    headers: { cookie: m.cookie, ...own },
    body: {},
  });
  const credential = key.register(options.body);
  // Another signed-in person cannot finish it.
  const other = await member('other@example.test');
  const stolen = await call(t.app, 'POST', `${P}/registration/verify`, {
    headers: { cookie: other.cookie, ...own },
    body: { credential },
  });
  assert.equal(stolen.status, 400);
  assert.equal(stolen.body.error.code, 'PASSKEY_INVALID');
  const first = await call(t.app, 'POST', `${P}/registration/verify`, {
    headers: { cookie: m.cookie, ...own },
    body: { credential },
  });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const replay = await call(t.app, 'POST', `${P}/registration/verify`, {
    headers: { cookie: m.cookie, ...own },
    body: { credential },
  });
  assert.equal(replay.status, 400);
  assert.equal(replay.body.error.code, 'PASSKEY_INVALID');

  const late = new SoftAuthenticator(ORIGIN, 'shop.example.test');
  const lateOptions = await call(t.app, 'POST', `${P}/registration/options`, {
    headers: { cookie: m.cookie, ...own },
    body: {},
  });
  t.clock.advance(5 * 60_000 + 1);
  const expired = await call(t.app, 'POST', `${P}/registration/verify`, {
    headers: { cookie: m.cookie, ...own },
    body: { credential: late.register(lateOptions.body) },
  });
  assert.equal(expired.status, 400);
  assert.equal(expired.body.error.code, 'PASSKEY_INVALID');
  const rows = await t.db.query(`SELECT count(*)::int AS n FROM staff_passkeys WHERE staff_id = $1`, [m.staffId]);
  assert.equal(rows.rows[0].n, 1);
});

test('a registration made for another origin does not verify', async () => {
  const m = await member('origin@example.test');
  const key = new SoftAuthenticator('https://evil.example', 'shop.example.test');
  const res = await register(m.cookie, key);
  assert.equal(res.status, 400);
  assert.equal(res.body.error.code, 'PASSKEY_INVALID');
  assert.equal(await hasPasskey(t.db, m.staffId), false);
});

test('signing in with a passkey starts a new session at the store, moves the counter on and stamps last use', async () => {
  const m = await member('signin@example.test');
  const key = new SoftAuthenticator(ORIGIN, 'shop.example.test');
  assert.equal((await register(m.cookie, key)).status, 200);
  const { options, res } = await signIn(key);
  assert.equal(options.rpId, 'shop.example.test');
  assert.equal(options.userVerification, 'preferred');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.store_id, store.id);
  const cookie = cookieFrom(res.headers['set-cookie']);
  assert.ok(cookie && cookie !== m.cookie);
  assert.match(String(res.headers['set-cookie']), /HttpOnly; SameSite=Lax.*Secure/);
  const list = await call(t.app, 'GET', P, { headers: { cookie } });
  assert.equal(list.status, 200);
  assert.equal(list.body.passkeys[0].last_used_at, t.clock.now().toISOString());
  const row = await t.db.query(`SELECT counter FROM staff_passkeys WHERE credential_id = $1`, [key.id]);
  assert.equal(row.rows[0].counter, 1);
  const sessions = await t.db.query(
    `SELECT count(*)::int AS n FROM staff_sessions WHERE staff_id = $1 AND ended_at IS NULL`,
    [m.staffId],
  );
  assert.equal(sessions.rows[0].n, 2);
});

test('every failed passkey sign-in gets the same answer and starts no session', async () => {
  const m = await member('fail@example.test');
  const key = new SoftAuthenticator(ORIGIN, 'shop.example.test');
  assert.equal((await register(m.cookie, key)).status, 200);
  const unknown = new SoftAuthenticator(ORIGIN, 'shop.example.test');
  const attempts = [
    (await signIn(unknown)).res,
    (await signIn(key, { badSignature: true })).res,
    (await signIn(key, { origin: 'https://evil.example' })).res,
    (await signIn(key, {}, { store_id: '00000000-0000-4000-8000-000000000000' })).res,
  ];
  assert.equal((await signIn(key, { counter: 50 })).res.status, 200);
  // A counter that goes back means a cloned authenticator.
  attempts.push((await signIn(key, { counter: 7 })).res);
  for (const res of attempts) {
    assert.equal(res.status, 401);
    assert.deepEqual(
      { ...res.body.error, requestId: undefined },
      {
        code: 'SIGN_IN_FAILED',
        message: 'The passkey did not sign you in; try again or use another way',
        requestId: undefined,
      },
    );
    assert.equal(res.headers['set-cookie'], undefined);
  }
  // The same answer, replayed against its used challenge.
  const { options } = await signIn(key);
  const replay = await call(t.app, 'POST', `${P}/authentication/verify`, {
    headers: own,
    body: { credential: key.authenticate(options) },
  });
  assert.equal(replay.status, 401);
  assert.equal(replay.body.error.code, 'SIGN_IN_FAILED');
});

test('a disabled member cannot sign in with their passkey', async () => {
  const m = await member('disabled@example.test');
  const key = new SoftAuthenticator(ORIGIN, 'shop.example.test');
  assert.equal((await register(m.cookie, key)).status, 200);
  await t.db.query(`UPDATE staff_memberships SET disabled = true WHERE staff_id = $1`, [m.staffId]);
  const { res } = await signIn(key);
  assert.equal(res.status, 401);
  assert.equal(res.body.error.code, 'SIGN_IN_FAILED');
});

test("removing a passkey answers the ones left; another person's passkey reads as missing", async () => {
  const m = await member('remove@example.test');
  const a = new SoftAuthenticator(ORIGIN, 'shop.example.test');
  const b = new SoftAuthenticator(ORIGIN, 'shop.example.test');
  assert.equal((await register(m.cookie, a, 'A')).status, 200);
  assert.equal((await register(m.cookie, b, 'B')).status, 200);
  const other = await member('remove-other@example.test');
  const theirs = await call(t.app, 'DELETE', `${P}/${a.id}`, { headers: { cookie: other.cookie, ...own } });
  assert.equal(theirs.status, 404);
  const res = await call(t.app, 'DELETE', `${P}/${a.id}`, { headers: { cookie: m.cookie, ...own } });
  assert.equal(res.status, 200);
  assert.deepEqual(
    res.body.passkeys.map((p: { name: string }) => p.name),
    ['B'],
  );
  assert.equal((await signIn(a)).res.status, 401);
});

test('two racing answers to one sign-in challenge start one session: the DELETE decides', async () => {
  const m = await member('race@example.test');
  const key = new SoftAuthenticator(ORIGIN, 'shop.example.test');
  assert.equal((await register(m.cookie, key)).status, 200);
  const options = await call(t.app, 'POST', `${P}/authentication/options`, { headers: own, body: {} });
  const credential = key.authenticate(options.body);
  const answers = await Promise.all(
    [1, 2, 3].map(() => call(t.app, 'POST', `${P}/authentication/verify`, { headers: own, body: { credential } })),
  );
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 401, 401]);
  const sessions = await t.db.query(
    `SELECT count(*)::int AS n FROM staff_sessions WHERE staff_id = $1 AND ended_at IS NULL`,
    [m.staffId],
  );
  assert.equal(sessions.rows[0].n, 2);
});
