// Staff accounts through the API: invitations caught by a real SMTP server, accepting, signing in
// and out, sessions, disabling and role changes observed at the next request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../support/http.ts';
import { accept, as, cookieOf, GOOD_PASSWORD, mailedToken, member, ownerOf, startStaffApp } from './support.ts';

const t = await startStaffApp();
const store = await t.fx.store();
const owner = await ownerOf(t, store.id);

test("the operator's invitation mails a link to the console's accept page with the token in the fragment; accepting signs the owner in", async () => {
  const mail = t.smtp.received.find((r) => r.to.includes('owner@shop.test'))!;
  assert.match(String(mail.mail.text), /\/console\/#\/accept#token=[A-Za-z0-9_-]{43}/);
  assert.equal(owner.body.role, 'owner');
  assert.equal(owner.body.store_id, store.id);
  const me = await call(t.app, 'GET', '/api/v1/auth/me', as(owner.cookie));
  assert.equal(me.status, 200);
  assert.deepEqual(me.body.staff, { id: owner.id, name: 'Olive Owner', email: 'owner@shop.test' });
  assert.equal(me.body.role, 'owner');
  // Only the token's hash is stored.
  const rows = await t.db.query(`SELECT token_hash FROM staff_sessions WHERE staff_id = $1`, [owner.id]);
  assert.equal(rows.rows.length, 1);
  assert.equal(Buffer.from(rows.rows[0].token_hash).length, 32);
});

test('the session cookie is HttpOnly, SameSite=Lax, Path=/ (Secure only when PUBLIC_URL is https)', async () => {
  const res = await call(t.app, 'POST', '/api/v1/auth/sign-in', {
    body: { email: 'owner@shop.test', password: GOOD_PASSWORD },
  });
  assert.equal(res.status, 200);
  const header = String(res.headers['set-cookie']);
  assert.match(header, /HttpOnly/);
  assert.match(header, /SameSite=Lax/);
  assert.match(header, /Path=\//);
  assert.doesNotMatch(header, /Secure/);
});

test('an invitation works once; a reused one is refused and changes nothing', async () => {
  await call(
    t.app,
    'POST',
    '/api/v1/staff/invitations',
    as(owner.cookie, { body: { email: 'once@shop.test', role: 'front_desk' } }),
  );
  const token = await mailedToken(t.smtp, 'once@shop.test');
  await accept(t, token, 'Once');
  const again = await call(t.app, 'POST', '/api/v1/auth/invitations/accept', {
    body: { token, name: 'Twice', password: GOOD_PASSWORD },
  });
  assert.equal(again.status, 400);
  assert.equal(errorCode(again), 'INVITATION_INVALID');
  const people = await t.db.query(`SELECT name FROM staff_people WHERE email = 'once@shop.test'`);
  assert.deepEqual(people.rows, [{ name: 'Once' }]);
});

test('a new invitation to the same email replaces the old; an expired one is refused', async () => {
  await call(
    t.app,
    'POST',
    '/api/v1/staff/invitations',
    as(owner.cookie, { body: { email: 'twice@shop.test', role: 'staff' } }),
  );
  const first = await mailedToken(t.smtp, 'twice@shop.test');
  await call(
    t.app,
    'POST',
    '/api/v1/staff/invitations',
    as(owner.cookie, { body: { email: 'Twice@Shop.test', role: 'staff' } }),
  );
  const second = await mailedToken(t.smtp, 'twice@shop.test');
  assert.notEqual(first, second);
  const old = await call(t.app, 'POST', '/api/v1/auth/invitations/accept', {
    body: { token: first, name: 'T', password: GOOD_PASSWORD },
  });
  assert.equal(errorCode(old), 'INVITATION_INVALID');
  t.clock.advance(73 * 3600 * 1000);
  try {
    const late = await call(t.app, 'POST', '/api/v1/auth/invitations/accept', {
      body: { token: second, name: 'T', password: GOOD_PASSWORD },
    });
    assert.equal(late.status, 400);
    assert.equal(errorCode(late), 'INVITATION_INVALID');
  } finally {
    t.clock.advance(-73 * 3600 * 1000);
  }
  assert.equal((await t.db.query(`SELECT 1 FROM staff_people WHERE email = 'twice@shop.test'`)).rowCount, 0);
});

test('weak passwords are refused (too short as the only factor, common) and the invitation stays usable', async () => {
  await call(
    t.app,
    'POST',
    '/api/v1/staff/invitations',
    as(owner.cookie, { body: { email: 'weak@shop.test', role: 'staff' } }),
  );
  const token = await mailedToken(t.smtp, 'weak@shop.test');
  for (const password of ['short-pass', 'passwordpassword', '1234567890123456']) {
    const res = await call(t.app, 'POST', '/api/v1/auth/invitations/accept', {
      body: { token, name: 'Weak', password },
    });
    assert.equal(res.status, 400, password);
    assert.equal(errorCode(res), 'WEAK_PASSWORD');
  }
  // 64 characters and more are accepted, with no composition rule.
  const long = 'a long passphrase of plain lower case words that goes past sixty four characters easily';
  const ok = await call(t.app, 'POST', '/api/v1/auth/invitations/accept', {
    body: { token, name: 'Weak', password: long },
  });
  assert.equal(ok.status, 200);
});

test("bad invitations: malformed email, unknown role, a role above one's own: 4xx in the envelope, nothing sent or stored", async () => {
  const manager = await member(t, owner.cookie, { email: 'manager@shop.test', role: 'manager', name: 'Mo Manager' });
  const before = t.smtp.received.length;
  const count = async () => (await t.db.query(`SELECT count(*)::int AS n FROM staff_invitations`)).rows[0].n;
  const n = await count();
  const malformed = await call(
    t.app,
    'POST',
    '/api/v1/staff/invitations',
    as(owner.cookie, { body: { email: 'not-an-email', role: 'staff' } }),
  );
  assert.equal(errorCode(malformed), 'VALIDATION_FAILED');
  const unknown = await call(
    t.app,
    'POST',
    '/api/v1/staff/invitations',
    as(owner.cookie, { body: { email: 'x@shop.test', role: 'admin' } }),
  );
  assert.equal(errorCode(unknown), 'VALIDATION_FAILED');
  const above = await call(
    t.app,
    'POST',
    '/api/v1/staff/invitations',
    as(manager.cookie, { body: { email: 'x@shop.test', role: 'owner' } }),
  );
  assert.equal(above.status, 403);
  assert.equal(errorCode(above), 'ROLE_FORBIDDEN');
  assert.equal(await count(), n);
  assert.equal(t.smtp.received.length, before);
});

test('a wrong password and an unknown email get the same answer', async () => {
  const wrong = await call(t.app, 'POST', '/api/v1/auth/sign-in', {
    body: { email: 'owner@shop.test', password: 'not the password at all' },
  });
  const unknown = await call(t.app, 'POST', '/api/v1/auth/sign-in', {
    body: { email: 'nobody@shop.test', password: 'not the password at all' },
  });
  assert.equal(wrong.status, 401);
  assert.equal(unknown.status, 401);
  assert.deepEqual({ ...wrong.body.error, requestId: null }, { ...unknown.body.error, requestId: null });
  assert.equal(wrong.headers['set-cookie'], undefined);
});

test('sign-out ends the session on the server: the same cookie is refused at the next request', async () => {
  const res = await call(t.app, 'POST', '/api/v1/auth/sign-in', {
    body: { email: 'owner@shop.test', password: GOOD_PASSWORD },
  });
  const cookie = cookieOf(res);
  assert.equal((await call(t.app, 'GET', '/api/v1/auth/me', as(cookie))).status, 200);
  const out = await call(t.app, 'POST', '/api/v1/auth/sign-out', as(cookie));
  assert.equal(out.status, 200);
  assert.match(String(out.headers['set-cookie']), /Max-Age=0/);
  const after = await call(t.app, 'GET', '/api/v1/auth/me', as(cookie));
  assert.equal(after.status, 401);
  assert.equal(errorCode(after), 'UNAUTHENTICATED');
});

test("one's sessions are listed, and ending one refuses its cookie", async () => {
  const other = cookieOf(
    await call(t.app, 'POST', '/api/v1/auth/sign-in', { body: { email: 'owner@shop.test', password: GOOD_PASSWORD } }),
  );
  const list = await call(t.app, 'GET', '/api/v1/auth/sessions', as(owner.cookie));
  assert.equal(list.status, 200);
  assert.ok(list.body.sessions.length >= 2);
  assert.equal(list.body.sessions.filter((s: any) => s.current).length, 1);
  const current = list.body.sessions.find((s: any) => s.current).id;
  const target = list.body.sessions.find((s: any) => !s.current).id;
  const ended = await call(t.app, 'DELETE', `/api/v1/auth/sessions/${target}`, as(owner.cookie));
  assert.equal(ended.status, 200);
  const left = await call(t.app, 'GET', '/api/v1/auth/sessions', as(owner.cookie));
  assert.ok(!left.body.sessions.some((s: any) => s.id === target));
  assert.ok(left.body.sessions.some((s: any) => s.id === current));
  void other;
});

test('disabling a person ends their sessions at once; enabling does not revive them', async () => {
  const desk = await member(t, owner.cookie, { email: 'desk@shop.test', role: 'front_desk', name: 'Dee Desk' });
  assert.equal(
    (
      await call(
        t.app,
        'GET',
        '/api/v1/bookings/diary',
        as(desk.cookie, { query: { store_id: store.id, from_date: '2026-06-01', to_date: '2026-06-01' } }),
      )
    ).status,
    200,
  );
  const off = await call(t.app, 'PATCH', `/api/v1/staff/${desk.id}`, as(owner.cookie, { body: { disabled: true } }));
  assert.equal(off.status, 200);
  assert.equal(off.body.staff.disabled, true);
  const next = await call(
    t.app,
    'GET',
    '/api/v1/bookings/diary',
    as(desk.cookie, { query: { store_id: store.id, from_date: '2026-06-01', to_date: '2026-06-01' } }),
  );
  assert.equal(next.status, 401);
  await call(t.app, 'PATCH', `/api/v1/staff/${desk.id}`, as(owner.cookie, { body: { disabled: false } }));
  assert.equal(
    (
      await call(
        t.app,
        'GET',
        '/api/v1/bookings/diary',
        as(desk.cookie, { query: { store_id: store.id, from_date: '2026-06-01', to_date: '2026-06-01' } }),
      )
    ).status,
    401,
  );
  const signIn = await call(t.app, 'POST', '/api/v1/auth/sign-in', {
    body: { email: 'desk@shop.test', password: GOOD_PASSWORD },
  });
  assert.equal(signIn.status, 200);
});

test('a role change applies from the next request', async () => {
  const person = await member(t, owner.cookie, { email: 'promote@shop.test', role: 'front_desk' });
  const body = { store_id: store.id, display_name: 'Chair 9', kind: 'chair' };
  const refused = await call(t.app, 'POST', '/api/v1/bookings/units', as(person.cookie, { body }));
  assert.equal(refused.status, 403);
  assert.equal(errorCode(refused), 'ROLE_FORBIDDEN');
  assert.equal((await t.db.query(`SELECT 1 FROM units WHERE display_name = 'Chair 9'`)).rowCount, 0);
  await call(t.app, 'PATCH', `/api/v1/staff/${person.id}`, as(owner.cookie, { body: { role: 'manager' } }));
  const allowed = await call(t.app, 'POST', '/api/v1/bookings/units', as(person.cookie, { body }));
  assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
  const me = await call(t.app, 'GET', '/api/v1/auth/me', as(person.cookie));
  assert.equal(me.body.role, 'manager');
});

test('nobody raises their own role or permissions; a manager never changes an owner; the store keeps an enabled owner', async () => {
  const manager = await member(t, owner.cookie, { email: 'm2@shop.test', role: 'manager' });
  const selfUp = await call(
    t.app,
    'PATCH',
    `/api/v1/staff/${manager.id}`,
    as(manager.cookie, { body: { role: 'owner' } }),
  );
  assert.equal(errorCode(selfUp), 'ROLE_FORBIDDEN');
  const selfPerm = await call(
    t.app,
    'PATCH',
    `/api/v1/staff/${manager.id}`,
    as(manager.cookie, { body: { permissions: ['can_process_payments'] } }),
  );
  assert.equal(errorCode(selfPerm), 'ROLE_FORBIDDEN');
  const touchOwner = await call(
    t.app,
    'PATCH',
    `/api/v1/staff/${owner.id}`,
    as(manager.cookie, { body: { disabled: true } }),
  );
  assert.equal(errorCode(touchOwner), 'ROLE_FORBIDDEN');
  const lastOwner = await call(
    t.app,
    'PATCH',
    `/api/v1/staff/${owner.id}`,
    as(owner.cookie, { body: { role: 'manager' } }),
  );
  assert.equal(lastOwner.status, 409);
  assert.equal(errorCode(lastOwner), 'LAST_OWNER');
  const list = await call(t.app, 'GET', '/api/v1/staff', as(owner.cookie));
  const row = list.body.staff.find((s: any) => s.id === owner.id);
  assert.equal(row.role, 'owner');
  assert.equal(row.disabled, false);
  assert.equal(list.body.staff.find((s: any) => s.id === manager.id).permissions.length, 0);
});

test('a cookie-authenticated write from another origin is refused; a bearer write is not', async () => {
  const body = { store_id: store.id, display_name: 'Elsewhere', kind: 'chair' };
  const cross = await call(
    t.app,
    'POST',
    '/api/v1/bookings/units',
    as(owner.cookie, { body, headers: { origin: 'https://evil.example' } }),
  );
  assert.equal(cross.status, 403);
  assert.equal(errorCode(cross), 'CROSS_ORIGIN_REFUSED');
  const site = await call(
    t.app,
    'POST',
    '/api/v1/bookings/units',
    as(owner.cookie, { body, headers: { 'sec-fetch-site': 'cross-site' } }),
  );
  assert.equal(errorCode(site), 'CROSS_ORIGIN_REFUSED');
  assert.equal((await t.db.query(`SELECT 1 FROM units WHERE display_name = 'Elsewhere'`)).rowCount, 0);
  const same = await call(
    t.app,
    'POST',
    '/api/v1/bookings/units',
    as(owner.cookie, { body, headers: { origin: 'http://localhost:3000' } }),
  );
  assert.equal(same.status, 200);
  const token = await t.fx.merchantToken(store.id);
  const bearer = await call(t.app, 'POST', '/api/v1/bookings/units', {
    token,
    body: { ...body, display_name: 'Bearer' },
    headers: { origin: 'https://evil.example' },
  });
  assert.equal(bearer.status, 200);
});

test('the audit trail names the acting staff member', async () => {
  const rows = await t.db.query(
    `SELECT actor_id, actor_name FROM audit_log WHERE action = 'staff.updated' ORDER BY id LIMIT 1`,
  );
  assert.deepEqual(rows.rows[0], { actor_id: owner.id, actor_name: 'Olive Owner' });
});

test('with an https PUBLIC_URL the cookie is Secure too', async () => {
  const { startSession } = await import('../../src/staff/sessions/sessions.service.ts');
  const { testConfig } = await import('../support/app.ts');
  const headers: Record<string, string> = {};
  const reply = {
    header: (name: string, value: string) => {
      headers[name] = value;
      return reply;
    },
  };
  await startSession(
    { db: t.db, clock: t.clock, config: testConfig({ PUBLIC_URL: 'https://shop.example' }) },
    { staffId: owner.id, storeId: store.id },
    reply as any,
  );
  assert.match(
    headers['set-cookie'],
    /^bbo_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000; Secure$/,
  );
});
