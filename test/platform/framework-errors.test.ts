// Every refusal the framework, its plugins or Node's HTTP parser make before a handler runs leaves
// in the envelope { error: { code, message, requestId } }, with a code of ours and no framework name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startTestApp } from '../support/app.ts';
import { call, errorCode, type CallResult } from '../support/http.ts';

const t = await startTestApp({ env: { BODY_LIMIT_BYTES: '4096' } });
const store = await t.fx.store();
const token = await t.fx.merchantToken(store.id);

function assertEnvelope(res: CallResult, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(errorCode(res), code);
  assert.deepEqual(Object.keys(res.body.error).sort(), ['code', 'message', 'requestId']);
  assert.equal(res.body.error.requestId, res.headers['x-request-id']);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.doesNotMatch(JSON.stringify(res.body), /FST_|fastify|Bad Request/i);
}

test('a path parameter over 200 characters answers 414 URI_TOO_LONG in the envelope', async () => {
  const res = await call(t.app, 'PATCH', `/api/v1/customers/${'a'.repeat(201)}`, {
    token,
    body: { store_id: store.id, name: 'X' },
  });
  assertEnvelope(res, 414, 'URI_TOO_LONG');
  assert.equal(t.app.inFlight(), 0, 'the request is not left counted as in flight');
});

test('a path that is not a valid URL answers 400 MALFORMED_URL', async () => {
  const res = await call(t.app, 'GET', '/api/v1/customers/%E0%A4%A/journey', { token, query: { store_id: store.id } });
  assertEnvelope(res, 400, 'MALFORMED_URL');
});

test('an unknown path answers 404 ROUTE_NOT_FOUND', async () => {
  assertEnvelope(await call(t.app, 'GET', '/api/v1/bookings/nothing', { token }), 404, 'ROUTE_NOT_FOUND');
});

test('a known path with another method answers 405 METHOD_NOT_ALLOWED with Allow', async () => {
  const res = await call(t.app, 'GET', '/api/v1/bookings/queue/call', { token });
  assertEnvelope(res, 405, 'METHOD_NOT_ALLOWED');
  assert.equal(res.headers.allow, 'POST');
  const put = await call(t.app, 'PUT', '/api/v1/bookings/services', { token, body: {} });
  assertEnvelope(put, 405, 'METHOD_NOT_ALLOWED');
  assert.equal(put.headers.allow, 'GET, HEAD, POST');
});

test('a body that is not JSON answers 400 MALFORMED_JSON', async () => {
  const res = await call(t.app, 'POST', '/api/v1/bookings/units', {
    token,
    body: '{"store_id": ',
    headers: { 'content-type': 'application/json' },
  });
  assertEnvelope(res, 400, 'MALFORMED_JSON');
});

test('an empty body sent as application/json answers 400 MALFORMED_JSON saying it is empty', async () => {
  const res = await call(t.app, 'POST', '/api/v1/bookings/units', {
    token,
    headers: { 'content-type': 'application/json' },
  });
  assertEnvelope(res, 400, 'MALFORMED_JSON');
  assert.match(res.body.error.message, /empty/);
});

test('a body of another media type answers 415 UNSUPPORTED_MEDIA_TYPE', async () => {
  for (const type of [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json-patch+json;;',
  ]) {
    const res = await call(t.app, 'POST', '/api/v1/bookings/units', {
      token,
      body: 'display_name=A',
      headers: { 'content-type': type },
    });
    assertEnvelope(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  }
});

test('a body over the limit answers 413 PAYLOAD_TOO_LARGE', async () => {
  const res = await call(t.app, 'POST', '/api/v1/bookings/units', {
    token,
    body: { store_id: store.id, display_name: 'x'.repeat(5000), kind: 'staff' },
  });
  assertEnvelope(res, 413, 'PAYLOAD_TOO_LARGE');
});

test('a querystring that does not fit the schema answers 400 VALIDATION_FAILED naming the parameter', async () => {
  const twice = await call(t.app, 'GET', `/api/v1/bookings/services?store_id=${store.id}&store_id=${store.id}`, {
    token,
  });
  assertEnvelope(twice, 400, 'VALIDATION_FAILED');
  assert.match(twice.body.error.message, /querystring\.store_id/);
  const garbled = await call(t.app, 'GET', '/api/v1/bookings/services?store_id=%ZZ%00', { token });
  assertEnvelope(garbled, 400, 'VALIDATION_FAILED');
  const unknown = await call(t.app, 'GET', `/api/v1/bookings/services?store_id=${store.id}&colour=red`, { token });
  assertEnvelope(unknown, 400, 'VALIDATION_FAILED');
  assert.match(unknown.body.error.message, /colour/);
});

/** Raw HTTP over a real socket, for what app.inject cannot send. */
async function raw(
  port: number,
  request: string,
): Promise<{ status: number; headers: Record<string, string>; body: any }> {
  const text = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    let data = '';
    socket.on('data', (chunk) => (data += chunk));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
  const [head, body] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

test('over a socket: headers over the limit answer 431 and a request that is not HTTP 400, both in the envelope', async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as net.AddressInfo;
  const big = await raw(
    port,
    `GET /api/v1/bookings/services HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
  );
  assert.equal(big.status, 431);
  assert.equal(big.body.error.code, 'HEADERS_TOO_LARGE');
  assert.equal(big.body.error.requestId, big.headers['x-request-id']);
  assert.equal(big.headers['x-content-type-options'], 'nosniff');
  const garbage = await raw(port, 'HELLO THERE\r\n\r\n');
  assert.equal(garbage.status, 400);
  assert.equal(garbage.body.error.code, 'MALFORMED_REQUEST');
  for (const res of [big, garbage]) {
    assert.deepEqual(Object.keys(res.body.error).sort(), ['code', 'message', 'requestId']);
    assert.doesNotMatch(JSON.stringify(res.body), /fastify|Client Error/i);
  }
});
