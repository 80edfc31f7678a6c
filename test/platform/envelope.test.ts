import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call, errorCode } from '../support/http.ts';
import { probeRoutes } from './probe.ts';

const t = await startTestApp({ extend: probeRoutes, env: { BODY_LIMIT_BYTES: '2048' } });
const store = await t.fx.store();
const token = await t.fx.merchantToken(store.id);
const thing = '6f1b6c1e-1111-4c1e-8a1e-1234567890ab';

function assertEnvelope(res: { status: number; body: any; headers: any }, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(errorCode(res), code);
  assert.equal(res.body.error.requestId, res.headers['x-request-id']);
  assert.deepEqual(Object.keys(res.body), ['error']);
  assert.deepEqual(Object.keys(res.body.error).sort(), ['code', 'message', 'requestId']);
}

test('a missing required field answers 400 naming the field', async () => {
  const res = await call(t.app, 'POST', `/probe/merchant/${thing}`, { token, body: { store_id: store.id } });
  assertEnvelope(res, 400, 'VALIDATION_FAILED');
  assert.match(res.body.error.message, /body\.count is required/);
});

test('a wrong type answers 400 naming the field (no coercion of bodies)', async () => {
  const res = await call(t.app, 'POST', `/probe/merchant/${thing}`, {
    token,
    body: { store_id: store.id, count: '5' },
  });
  assertEnvelope(res, 400, 'VALIDATION_FAILED');
  assert.match(res.body.error.message, /body\.count/);
});

test('an unknown field answers 400 naming it', async () => {
  const res = await call(t.app, 'POST', `/probe/merchant/${thing}`, {
    token,
    body: { store_id: store.id, count: 1, colour: 'red' },
  });
  assertEnvelope(res, 400, 'VALIDATION_FAILED');
  assert.match(res.body.error.message, /body\.colour is not allowed/);
});

test('an invalid uuid in the path answers 400', async () => {
  const res = await call(t.app, 'POST', '/probe/merchant/not-a-uuid', {
    token,
    body: { store_id: store.id, count: 1 },
  });
  assertEnvelope(res, 400, 'VALIDATION_FAILED');
  assert.match(res.body.error.message, /params\.thingId/);
});

test('a huge page size answers 400', async () => {
  const res = await call(t.app, 'GET', '/probe/merchant', { token, query: { limit: 100000 } });
  assertEnvelope(res, 400, 'VALIDATION_FAILED');
  assert.match(res.body.error.message, /querystring\.limit/);
});

test('malformed JSON answers 400 MALFORMED_JSON', async () => {
  const res = await call(t.app, 'POST', `/probe/merchant/${thing}`, {
    token,
    body: '{"store_id": ',
    headers: { 'content-type': 'application/json' },
  });
  assertEnvelope(res, 400, 'MALFORMED_JSON');
});

test('a body that is not JSON answers 415 UNSUPPORTED_MEDIA_TYPE', async () => {
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
    const res = await call(t.app, 'POST', `/probe/merchant/${thing}`, {
      token,
      body: 'count=1',
      headers: { 'content-type': type },
    });
    assertEnvelope(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  }
});

test('a body over the limit answers 413 PAYLOAD_TOO_LARGE', async () => {
  const res = await call(t.app, 'POST', `/probe/merchant/${thing}`, {
    token,
    body: { store_id: store.id, count: 1, note: 'x'.repeat(5000) },
  });
  assertEnvelope(res, 413, 'PAYLOAD_TOO_LARGE');
});

test('an unknown route answers 404 ROUTE_NOT_FOUND', async () => {
  assertEnvelope(await call(t.app, 'GET', '/api/v1/nothing-here', { token }), 404, 'ROUTE_NOT_FOUND');
});

test('an unexpected failure answers 500 INTERNAL without leaking internals', async () => {
  const res = await call(t.app, 'POST', '/probe/boom', { token, body: {} });
  assertEnvelope(res, 500, 'INTERNAL');
  assert.doesNotMatch(JSON.stringify(res.body), /secret_table|password|SELECT|at /);
});

test('a caller request id is echoed; otherwise one is minted', async () => {
  const res = await call(t.app, 'GET', '/probe/merchant', { headers: { 'x-request-id': 'trace-abc-12345' } });
  assert.equal(res.headers['x-request-id'], 'trace-abc-12345');
  assert.equal(res.body.error.requestId, 'trace-abc-12345');
  const minted = await call(t.app, 'GET', '/probe/merchant', { headers: { 'x-request-id': 'bad id with spaces' } });
  assert.match(String(minted.headers['x-request-id']), /^[0-9a-f-]{36}$/);
});

test('the global rate limit answers 429 RATE_LIMITED with Retry-After, per principal', async () => {
  const limited = await startTestApp({ extend: probeRoutes, env: { RATE_LIMIT_GLOBAL_PER_MIN: '3' } });
  const s = await limited.fx.store();
  const a = await limited.fx.merchantToken(s.id, { userId: 'a' });
  const b = await limited.fx.merchantToken(s.id, { userId: 'b' });
  for (let i = 0; i < 3; i++)
    assert.equal((await call(limited.app, 'GET', '/probe/merchant', { token: a })).status, 200);
  const res = await call(limited.app, 'GET', '/probe/merchant', { token: a });
  assertEnvelope(res, 429, 'RATE_LIMITED');
  assert.ok(Number(res.headers['retry-after']) > 0);
  assert.equal((await call(limited.app, 'GET', '/probe/merchant', { token: b })).status, 200);
  // Health checks are never limited.
  for (let i = 0; i < 5; i++) assert.equal((await call(limited.app, 'GET', '/healthz')).status, 200);
});
