import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { startTestApp } from '../support/app.ts';
import { call, errorCode } from '../support/http.ts';
import { probeRoutes } from './probe.ts';

// A stand-in identity provider publishing its signing key as a JWKS on loopback.
const { publicKey, privateKey } = await generateKeyPair('RS256');
const jwk = { ...(await exportJWK(publicKey)), kid: 'idp-key-1', alg: 'RS256', use: 'sig' };
const server = http.createServer((_req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ keys: [jwk] }));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
after(() => server.close());
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;

const t = await startTestApp({ extend: probeRoutes, env: { AUTH_JWKS_URL: url } });
const store = await t.fx.store();

const idpToken = (claims: Record<string, unknown>, key = privateKey) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'idp-key-1' })
    .setIssuer('bookings-back-office')
    .setAudience('bookings-api')
    .setSubject('staff-9')
    .setExpirationTime('10m')
    .sign(key);

test('a token from the identity provider is verified against its JWKS', async () => {
  const token = await idpToken({ kind: 'merchant', store_id: store.id, scope: 'merchant:read' });
  const res = await call(t.app, 'GET', '/probe/merchant', { token });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { store_id: store.id, user_id: 'staff-9' });
});

test('a token signed by another key is refused', async () => {
  const other = await generateKeyPair('RS256');
  const token = await idpToken({ kind: 'merchant', store_id: store.id, scope: 'merchant:read' }, other.privateKey);
  const res = await call(t.app, 'GET', '/probe/merchant', { token });
  assert.equal(res.status, 401);
  assert.equal(errorCode(res), 'UNAUTHENTICATED');
});

test('tokens minted with the shared secret still work alongside the JWKS', async () => {
  const res = await call(t.app, 'GET', '/probe/merchant', { token: await t.fx.merchantToken(store.id) });
  assert.equal(res.status, 200);
});
