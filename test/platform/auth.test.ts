import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { ADMIN_TOKEN, startTestApp, TEST_SECRET } from '../support/app.ts';
import { call, errorCode } from '../support/http.ts';
import { probeRoutes } from './probe.ts';

const t = await startTestApp({ extend: probeRoutes });
const store = await t.fx.store();
const otherStore = await t.fx.store({ name: 'Other' });
const customer = await t.fx.customer();
const thing = '6f1b6c1e-1111-4c1e-8a1e-1234567890ab';
const writeBody = { store_id: store.id, count: 1 };

test('no token answers 401 UNAUTHENTICATED in the envelope', async () => {
  const res = await call(t.app, 'GET', '/probe/merchant');
  assert.equal(res.status, 401);
  assert.equal(errorCode(res), 'UNAUTHENTICATED');
  assert.equal(res.body.error.requestId, res.headers['x-request-id']);
});

test('a malformed Authorization header answers 401', async () => {
  for (const header of ['Token abc', 'Bearer', 'Bearer a b', 'bearer']) {
    const res = await call(t.app, 'GET', '/probe/merchant', { headers: { authorization: header } });
    assert.equal(res.status, 401, header);
    assert.equal(errorCode(res), 'UNAUTHENTICATED');
  }
});

test('a badly signed token answers 401', async () => {
  const forged = await new SignJWT({ kind: 'merchant', store_id: store.id, scope: 'merchant:read' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('bookings-back-office')
    .setAudience('bookings-api')
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('another-secret-another-secret-another'));
  const res = await call(t.app, 'GET', '/probe/merchant', { token: forged });
  assert.equal(res.status, 401);
  assert.equal(errorCode(res), 'UNAUTHENTICATED');
});

test('an expired token answers 401', async () => {
  const expired = await new SignJWT({ kind: 'merchant', store_id: store.id, scope: 'merchant:read' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('bookings-back-office')
    .setAudience('bookings-api')
    .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
    .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
    .sign(new TextEncoder().encode(TEST_SECRET));
  const res = await call(t.app, 'GET', '/probe/merchant', { token: expired });
  assert.equal(res.status, 401);
  assert.equal(errorCode(res), 'UNAUTHENTICATED');
});

test('a token for another audience answers 401', async () => {
  const wrongAudience = await new SignJWT({ kind: 'merchant', store_id: store.id, scope: 'merchant:read' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('bookings-back-office')
    .setAudience('someone-else')
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(TEST_SECRET));
  assert.equal((await call(t.app, 'GET', '/probe/merchant', { token: wrongAudience })).status, 401);
});

test('a customer token on a merchant route answers 403 WRONG_TOKEN_KIND', async () => {
  const res = await call(t.app, 'GET', '/probe/merchant', { token: await t.fx.customerToken(customer.id) });
  assert.equal(res.status, 403);
  assert.equal(errorCode(res), 'WRONG_TOKEN_KIND');
});

test('a merchant token on a customer route answers 403 WRONG_TOKEN_KIND', async () => {
  const res = await call(t.app, 'GET', '/probe/customer', { token: await t.fx.merchantToken(store.id) });
  assert.equal(res.status, 403);
  assert.equal(errorCode(res), 'WRONG_TOKEN_KIND');
});

test('a missing scope answers 403 INSUFFICIENT_SCOPE; write includes read', async () => {
  const readOnly = await t.fx.merchantToken(store.id, { scopes: ['merchant:read'] });
  const res = await call(t.app, 'POST', `/probe/merchant/${thing}`, { token: readOnly, body: writeBody });
  assert.equal(res.status, 403);
  assert.equal(errorCode(res), 'INSUFFICIENT_SCOPE');
  const none = await t.fx.merchantToken(store.id, { scopes: [] });
  assert.equal(errorCode(await call(t.app, 'GET', '/probe/merchant', { token: none })), 'INSUFFICIENT_SCOPE');
  const writeOnly = await t.fx.merchantToken(store.id, { scopes: ['merchant:write'] });
  assert.equal((await call(t.app, 'GET', '/probe/merchant', { token: writeOnly })).status, 200);
  const customerNoScope = await t.fx.customerToken(customer.id, []);
  assert.equal(
    errorCode(await call(t.app, 'GET', '/probe/customer', { token: customerNoScope })),
    'INSUFFICIENT_SCOPE',
  );
});

test('a missing entitlement answers 403 MISSING_ENTITLEMENT', async () => {
  const token = await t.fx.merchantToken(store.id, { entitlements: ['classes'] });
  const res = await call(t.app, 'POST', `/probe/merchant/${thing}`, { token, body: writeBody });
  assert.equal(res.status, 403);
  assert.equal(errorCode(res), 'MISSING_ENTITLEMENT');
});

test('a missing staff permission answers 403 MISSING_PERMISSION', async () => {
  const token = await t.fx.merchantToken(store.id, { permissions: [] });
  const res = await call(t.app, 'POST', `/probe/merchant/${thing}`, { token, body: writeBody });
  assert.equal(res.status, 403);
  assert.equal(errorCode(res), 'MISSING_PERMISSION');
});

test('the authenticated store wins over a store_id in the body or query', async () => {
  const token = await t.fx.merchantToken(store.id);
  const viaQuery = await call(t.app, 'GET', '/probe/merchant', { token, query: { store_id: otherStore.id } });
  assert.equal(viaQuery.status, 200);
  assert.equal(viaQuery.body.store_id, store.id);
  const viaBody = await call(t.app, 'POST', `/probe/merchant/${thing}`, {
    token,
    body: { store_id: otherStore.id, count: 1 },
  });
  assert.equal(viaBody.status, 200);
  assert.equal(viaBody.body.store_id, store.id);
  assert.equal(viaBody.body.user_id, 'staff-1');
});

test('the operator surface refuses anything but the admin token', async () => {
  const body = { name: 'S', timezone: 'Europe/London', currency: 'GBP' };
  assert.equal(errorCode(await call(t.app, 'POST', '/admin/v1/stores', { body })), 'UNAUTHENTICATED');
  assert.equal(
    errorCode(await call(t.app, 'POST', '/admin/v1/stores', { body, token: 'not-the-admin-token' })),
    'UNAUTHENTICATED',
  );
  const merchant = await call(t.app, 'POST', '/admin/v1/stores', { body, token: await t.fx.merchantToken(store.id) });
  assert.equal(merchant.status, 403);
  assert.equal(errorCode(merchant), 'WRONG_TOKEN_KIND');
  assert.equal((await call(t.app, 'POST', '/admin/v1/stores', { body, token: ADMIN_TOKEN })).status, 200);
});

test('the operator surface is off without ADMIN_TOKEN', async () => {
  const off = await startTestApp({ env: { ADMIN_TOKEN: '' } });
  const res = await call(off.app, 'POST', '/admin/v1/stores', {
    token: ADMIN_TOKEN,
    body: { name: 'S', timezone: 'Europe/London', currency: 'GBP' },
  });
  assert.equal(res.status, 404);
  assert.equal(errorCode(res), 'ADMIN_DISABLED');
  assert.equal((await off.db.query('SELECT count(*)::int AS n FROM stores')).rows[0].n, 0);
});

test('a token accepted earlier is refused once it has expired (verified tokens are not remembered past expiry)', async (ctx) => {
  // Minted so that it expires 1 s from now; the verifier allows 5 s of clock skew. The verifier and
  // its cache read the system time, so the test moves Date on 6.5 s instead of waiting for it.
  ctx.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  try {
    const { token } = await t.tokens.sign(
      { kind: 'merchant', store_id: store.id, scopes: ['merchant:read'] },
      60,
      new Date(Date.now() - 59_000),
    );
    assert.equal((await call(t.app, 'GET', '/probe/merchant', { token })).status, 200);
    ctx.mock.timers.tick(4_000);
    assert.equal((await call(t.app, 'GET', '/probe/merchant', { token })).status, 200, 'still inside the 5 s of skew');
    ctx.mock.timers.tick(2_500);
    const res = await call(t.app, 'GET', '/probe/merchant', { token });
    assert.equal(res.status, 401);
    assert.equal(errorCode(res), 'UNAUTHENTICATED');
  } finally {
    ctx.mock.timers.reset();
  }
});
