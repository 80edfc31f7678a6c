// TRUST_PROXY (issue 41): behind a load balancer every customer arrives from the proxy's address, so
// per-address limits would lump them together. Forwarded addresses count only when the request comes
// from a listed proxy; unset, X-Forwarded-For is ignored (anyone can write it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, ConfigError } from '../../src/config.ts';
import { errorCode } from '../support/http.ts';
import { BOOK, callFrom, pageShop } from '../booking-page/support.ts';

const verify = (w: Awaited<ReturnType<typeof pageShop>>, socket: string, forwarded: string | null, n: number) =>
  callFrom(w.t.app, 'POST', `${BOOK}/email-code/verify`, socket, {
    headers: forwarded ? { 'x-forwarded-for': forwarded } : {},
    body: { email: `someone${n}@example.com`, code: '000000' },
  });

test('TRUST_PROXY takes addresses and CIDRs; anything else stops the start', () => {
  const base = { AUTH_SECRET: 'x'.repeat(40) };
  assert.equal(loadConfig(base).trustProxy, null);
  assert.deepEqual(loadConfig({ ...base, TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,::1' }).trustProxy, [
    '10.0.0.1',
    '10.1.0.0/16',
    '::1',
  ]);
  for (const bad of ['true', 'proxy.example', '10.0.0.0/33', '10.0.0.1/8/1']) {
    assert.throws(
      () => loadConfig({ ...base, TRUST_PROXY: bad }),
      (err) => err instanceof ConfigError && /TRUST_PROXY/.test(err.message),
      bad,
    );
  }
});

test("unset: X-Forwarded-For is ignored, the socket's address is the one limited", async () => {
  const w = await pageShop();
  for (let i = 0; i < 10; i++) assert.equal((await verify(w, '10.0.0.1', `203.0.113.${i + 1}`, i)).status, 400);
  const eleventh = await verify(w, '10.0.0.1', '203.0.113.99', 99);
  assert.equal(eleventh.status, 429);
  assert.equal(errorCode(eleventh), 'RATE_LIMITED');
});

test("set: each forwarded client has its own limit behind a trusted proxy; an untrusted sender's header is ignored", async () => {
  const w = await pageShop({ app: { env: { TRUST_PROXY: '10.0.0.0/24' } } });
  // Eleven customers behind the proxy: none is limited by the others.
  for (let i = 0; i < 11; i++)
    assert.equal((await verify(w, '10.0.0.1', `203.0.113.${i + 1}`, i)).status, 400, `customer ${i + 1}`);
  // One forwarded customer trying 11 times is.
  for (let i = 0; i < 10; i++) await verify(w, '10.0.0.2', '198.51.100.7', 100 + i);
  const own = await verify(w, '10.0.0.3', '198.51.100.7', 200);
  assert.equal(own.status, 429);
  // A client not behind the proxy cannot pick its address by writing the header.
  for (let i = 0; i < 10; i++) await verify(w, '192.0.2.50', `203.0.113.${i + 100}`, 300 + i);
  assert.equal((await verify(w, '192.0.2.50', '203.0.113.250', 400)).status, 429);
});
