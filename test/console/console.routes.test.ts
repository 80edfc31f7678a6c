// /console serves the built single-page app: public files with a strict Content-Security-Policy on
// the console's routes only; /docs and the API keep their own headers.
import { after, test } from 'node:test';
import Fastify from 'fastify';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestApp } from '../support/app.ts';
import { CONSOLE_CSP, consoleRoutes } from '../../src/console/console.routes.ts';
import { call } from '../support/http.ts';
import { registerErrorHandling } from '../../src/platform/errors/error-handler.ts';
import { registerAuthGuard } from '../../src/platform/auth/guard.ts';

// A stand-in build, so this test does not depend on `vite build` having run.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'console-dist-'));
fs.mkdirSync(path.join(root, 'assets'));
fs.writeFileSync(
  path.join(root, 'index.html'),
  '<!doctype html><script type="module" src="/console/assets/app-1.js"></script>',
);
fs.writeFileSync(path.join(root, 'assets', 'app-1.js'), 'console.log(1)');
fs.writeFileSync(path.join(root, 'secret.txt'), 'not served');

// The real app (whatever console/dist holds), and one serving the stand-in build through the same
// plugin behind the same guard and error handling.
const { app: full, tokens, config } = await startTestApp();
const app = Fastify({ logger: false });
registerErrorHandling(app);
registerAuthGuard(app, tokens, config.adminToken);
await app.register(consoleRoutes, { root });
await app.ready();
after(() => app.close());

test('the console page is public, never cached, and carries a CSP with no inline script', async () => {
  const res = await app.inject({ method: 'GET', url: '/console/' });
  assert.equal(res.statusCode, 200);
  assert.match(res.headers['content-type'] as string, /text\/html/);
  const csp = res.headers['content-security-policy'] as string;
  assert.match(csp, /script-src 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.equal(res.headers['referrer-policy'], 'no-referrer');
  assert.equal(res.headers['cache-control'], 'no-store');
});

test('/console redirects to /console/, assets are immutable, and nothing outside assets is served', async () => {
  const redirect = await app.inject({ method: 'GET', url: '/console' });
  assert.equal(redirect.statusCode, 302);
  assert.equal(redirect.headers.location, '/console/');
  const asset = await app.inject({ method: 'GET', url: '/console/assets/app-1.js' });
  assert.equal(asset.statusCode, 200);
  assert.equal(asset.body, 'console.log(1)');
  assert.match(asset.headers['cache-control'] as string, /immutable/);
  for (const url of [
    '/console/secret.txt',
    '/console/assets/../secret.txt',
    '/console/assets/%2e%2e/secret.txt',
    '/console/assets/missing.js',
  ]) {
    const res = await app.inject({ method: 'GET', url });
    assert.equal(res.statusCode, 404, url);
    assert.equal(res.json().error.code, 'ROUTE_NOT_FOUND', url);
  }
});

test("the console's policy stays on the console: /docs and the API keep their own", async () => {
  const page = await full.inject({ method: 'GET', url: '/console/' });
  assert.equal(page.headers['content-security-policy'], CONSOLE_CSP);
  const asset = await full.inject({ method: 'GET', url: '/console/assets/none.js' });
  assert.equal(asset.statusCode, 404);
  assert.equal(asset.headers['content-security-policy'], CONSOLE_CSP);
  for (const url of ['/docs', '/docs/static/index.html', '/openapi.json', '/healthz']) {
    const res = await full.inject({ method: 'GET', url });
    assert.ok(res.statusCode < 400, `${url} ${res.statusCode}`);
    assert.notEqual(res.headers['content-security-policy'], CONSOLE_CSP, url);
  }
  const api = await call(full, 'GET', '/api/v1/bookings/services', {
    query: { store_id: '00000000-0000-4000-8000-000000000000' },
  });
  assert.equal(api.status, 401);
  assert.notEqual(api.headers['content-security-policy'], CONSOLE_CSP);
});
