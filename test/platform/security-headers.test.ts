// Every documented route, called with and without a token: each answer carries nosniff and
// Cache-Control: no-store (public ones too: caching is opted into by a route, never out of), and
// nothing names the framework. The list of routes is the document's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestApp } from '../support/app.ts';
import { call, type CallResult } from '../support/http.ts';
import { operationsOf, urlOf } from '../../reliability/openapi.ts';

const t = await startTestApp();
const store = await t.fx.store();
const customer = await t.fx.customer({ name: 'Headers' });
const merchant = await t.fx.merchantToken(store.id, {
  entitlements: ['can_use_bookings', 'classes'],
  permissions: ['can_process_payments'],
});
const customerToken = await t.fx.customerToken(customer.id);
const doc = (await call(t.app, 'GET', '/openapi.json')).body;
const operations = operationsOf(doc);
const someId = '6f1b6c1e-1111-4c1e-8a1e-1234567890ab';

function assertHeaders(res: CallResult, where: string, authenticated: boolean) {
  assert.equal(res.headers['x-content-type-options'], 'nosniff', `${where}: nosniff`);
  if (authenticated) assert.equal(res.headers['cache-control'], 'no-store', `${where}: cache-control`);
  assert.equal(res.headers['x-powered-by'], undefined, `${where}: x-powered-by`);
  assert.equal(res.headers.server, undefined, `${where}: server`);
  for (const [name, value] of Object.entries(res.headers)) {
    assert.doesNotMatch(`${name}: ${value}`, /fastify/i, `${where}: header ${name} names the framework`);
  }
  assert.doesNotMatch(JSON.stringify(res.body ?? ''), /fastify|FST_/i, `${where}: body names the framework`);
}

test('every documented operation answers with nosniff, no-store and no fingerprint, with and without a token', async () => {
  assert.ok(operations.length >= 40, `only ${operations.length} operations in the document`);
  for (const op of operations) {
    const url = urlOf(op, Object.fromEntries(op.pathParams.map((p) => [p.name, someId])), { store_id: store.id });
    const token = op.auth.kind === 'admin' ? ADMIN_TOKEN : op.auth.kind === 'customer' ? customerToken : merchant;
    const body = ['GET', 'DELETE'].includes(op.method) ? undefined : {};
    if (op.auth.kind === 'public') {
      // Public operations (the booking page's) need no token: their answers carry the headers too.
      assertHeaders(await call(t.app, op.method, url, { body }), `${op.method} ${op.path} (public)`, true);
      continue;
    }
    const anonymous = await call(t.app, op.method, url, { body });
    assert.equal(anonymous.status, 401, `${op.method} ${op.path} without a token`);
    assertHeaders(anonymous, `${op.method} ${op.path} (no token)`, true);
    const success = doc.paths[op.path][op.method.toLowerCase()].responses?.['200']?.content ?? {};
    if (!('application/json' in success)) {
      // A stream (Server-Sent Events) never ends: read its head only, then close it.
      const res = await t.app.inject({
        method: op.method as any,
        url,
        headers: { authorization: `Bearer ${token}` },
        payloadAsStream: true,
      });
      res.stream().destroy();
      assert.equal(res.statusCode, 200, `${op.method} ${op.path}`);
      assertHeaders(
        { status: res.statusCode, body: null, headers: res.headers as any },
        `${op.method} ${op.path} (stream)`,
        false,
      );
      assert.match(String(res.headers['cache-control']), /^no-store\b/, `${op.method} ${op.path}: cache-control`);
      continue;
    }
    const signed = await call(t.app, op.method, url, { token, body });
    assert.ok(
      signed.status !== 401 && signed.status < 500,
      `${op.method} ${op.path}: ${signed.status} ${JSON.stringify(signed.body)}`,
    );
    assertHeaders(signed, `${op.method} ${op.path}`, true);
  }
});

test('unknown routes and framework refusals carry the same headers', async () => {
  assertHeaders(await call(t.app, 'GET', '/api/v1/nothing', { token: merchant }), 'unknown route', true);
  assertHeaders(
    await call(t.app, 'GET', `/api/v1/customers/${'a'.repeat(300)}/journey`, { token: merchant }),
    'long param',
    true,
  );
  assertHeaders(await call(t.app, 'GET', '/api/v1/customers/%E0%A4%A/journey', { token: merchant }), 'bad url', true);
});

test('public answers carry nosniff and no-store unless their route chose its own caching; the JSON API forbids framing and loading anything', async () => {
  for (const url of ['/healthz', '/openapi.json']) {
    const res = await call(t.app, 'GET', url);
    assert.equal(res.status, 200);
    assertHeaders(res, url, true);
  }
  // A route that chose its own caching keeps it: the booking page's hashed assets are cached for a year
  // (test/booking-page/files-compression.test.ts), the console's too (test/console/console.routes.test.ts).
  const api = await call(t.app, 'GET', '/api/v1/bookings/services', { token: merchant, query: { store_id: store.id } });
  assert.equal(api.headers['content-security-policy'], "default-src 'none';frame-ancestors 'none'");
  assert.equal(api.headers['x-frame-options'], 'DENY');
});

test('the docs page still renders under its own content security policy', async () => {
  const page = await t.app.inject({ method: 'GET', url: '/docs/' });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /swagger-ui/);
  const csp = String(page.headers['content-security-policy']);
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /default-src 'none'|upgrade-insecure-requests/);
  const init = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
  assert.equal(init.statusCode, 200);
});
