// A request body that never finishes (issue 41): answered 408 REQUEST_TIMEOUT in the envelope once
// BODY_TIMEOUT_MS passes, and a shutdown does not wait for it. Over a real socket: app.inject has
// no connection to hold open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startTestApp } from '../support/app.ts';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../support/app.ts';
import { openTestDatabase } from '../support/engine.ts';

/** Sends the headers and part of the body, then nothing more; resolves with whatever the server answers, when it closes. */
function stalledPost(port: number): { socket: net.Socket; answer: Promise<string> } {
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (c) => chunks.push(c));
  socket.on('error', () => {});
  const answer = new Promise<string>((resolve) => socket.on('close', () => resolve(Buffer.concat(chunks).toString())));
  socket.write(
    'POST /api/v1/book/some-shop/email-code HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"email":"a@',
  );
  return { socket, answer };
}

test('a body that never finishes is answered 408 REQUEST_TIMEOUT in the envelope after BODY_TIMEOUT_MS', async () => {
  const t = await startTestApp({ env: { BODY_TIMEOUT_MS: '600' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as net.AddressInfo).port;
  const started = Date.now();
  const { answer } = stalledPost(port);
  const raw = await answer;
  const took = Date.now() - started;
  assert.match(raw, /^HTTP\/1\.1 408 Request Timeout\r\n/);
  const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
  assert.equal(body.error.code, 'REQUEST_TIMEOUT');
  assert.ok(took >= 500 && took < 3000, `answered after ${took} ms`);
  // The request never reached a handler, and nothing is left counted as in flight.
  for (let i = 0; i < 40 && t.app.inFlight() > 0; i++) await new Promise((r) => setTimeout(r, 25));
  assert.equal(t.app.inFlight(), 0);
});

test('the default limit is 30 s; a shutdown ends a stalled body at once instead of waiting for it', async () => {
  assert.equal(testConfig().bodyTimeoutMs, 30_000);
  const testDb = await openTestDatabase();
  const app = await buildApp({ config: testConfig(), db: testDb.db, logger: false });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as net.AddressInfo).port;
    const { answer } = stalledPost(port);
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    await app.close();
    const took = Date.now() - started;
    assert.ok(took < 2000, `close took ${took} ms`);
    await answer;
    for (let i = 0; i < 40 && app.inFlight() > 0; i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal(app.inFlight(), 0, 'a shutdown has nothing to wait for');
  } finally {
    await testDb.close();
  }
});

test('a body that arrives in time is served as before', async () => {
  const t = await startTestApp({ env: { BODY_TIMEOUT_MS: '600' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as net.AddressInfo).port;
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/book/no-such-shop/email-code/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'a@example.com', code: '123456' }),
  });
  assert.equal(res.status, 404);
  assert.equal((await res.json()).error.code, 'NOT_FOUND');
});

test('a client that leaves the live event stream is no longer counted in flight: a shutdown does not wait 15 s for it', async () => {
  const t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as net.AddressInfo).port;
  const store = await t.fx.store();
  const token = await t.fx.merchantToken(store.id);
  const aborter = new AbortController();
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/events/stream?store_id=${store.id}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: aborter.signal,
  });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  await reader.read(); // the stream is open
  assert.equal(t.app.inFlight(), 1);
  aborter.abort();
  await reader.closed.catch(() => {});
  for (let i = 0; i < 80 && t.app.inFlight() > 0; i++) await new Promise((r) => setTimeout(r, 25));
  assert.equal(t.app.inFlight(), 0);
});
