// The page's HTML and files: CSP frame-ancestors from the store's cors_origins, no X-Frame-Options,
// immutable assets, embed.js, the favicon; compression of JSON (the availability route's
// pre-serialised bytes included) and of the files, never of the event stream.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { connectSse } from '../../reliability/sse-client.ts';
import { PAGE_DIST } from '../../src/booking-page/page-files.routes.ts';
import { BOOK, pageShop, setStore, SLUG } from './support.ts';

const built = existsSync(`${PAGE_DIST}index.html`);

test("/book/{slug} and /manage: the page with frame-ancestors = the store's cors_origins, no X-Frame-Options", async () => {
  const w = await pageShop();
  for (const url of [`/book/${SLUG}`, `/book/${SLUG}/manage`]) {
    const none = await w.t.app.inject({ method: 'GET', url });
    assert.equal(none.statusCode, built ? 200 : 503, url);
    assert.match(String(none.headers['content-security-policy']), /frame-ancestors 'none'(;|$)/);
    assert.match(String(none.headers['content-security-policy']), /script-src 'self';/);
    assert.equal(none.headers['x-frame-options'], undefined);
    if (built) assert.match(none.body, /<script type="module"[^>]*src="\/book\/assets\//);
  }
  await setStore(w.t, w.storeId, { cors_origins: ['https://shop.example', 'http://127.0.0.2:8080'] });
  const framed = await w.t.app.inject({ method: 'GET', url: `/book/${SLUG}` });
  assert.match(
    String(framed.headers['content-security-policy']),
    /frame-ancestors https:\/\/shop\.example http:\/\/127\.0\.0\.2:8080$/,
  );
  assert.equal(framed.headers['x-frame-options'], undefined);
  // Revalidated on every visit, but not no-store: the back/forward cache may keep the page.
  assert.equal(framed.headers['cache-control'], 'no-cache');
  // The API keeps its own deny-all framing.
  const api = await w.t.app.inject({ method: 'GET', url: BOOK });
  assert.equal(api.headers['x-frame-options'], 'DENY');
});

test('assets are immutable and compressed; embed.js and the favicon are served', {
  skip: !built && 'booking-page/dist is not built',
}, async () => {
  const w = await pageShop();
  const js = readdirSync(`${PAGE_DIST}assets`).find((f) => f.endsWith('.js'))!;
  const plain = await w.t.app.inject({ method: 'GET', url: `/book/assets/${js}` });
  assert.equal(plain.statusCode, 200);
  assert.match(String(plain.headers['cache-control']), /immutable/);
  const br = await w.t.app.inject({ method: 'GET', url: `/book/assets/${js}`, headers: { 'accept-encoding': 'br' } });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
  assert.equal((await w.t.app.inject({ method: 'GET', url: '/book/assets/../index.html' })).statusCode, 404);
  const embed = await w.t.app.inject({ method: 'GET', url: '/book/embed.js' });
  assert.equal(embed.statusCode, 200);
  assert.match(String(embed.headers['content-type']), /javascript/);
  // The shop's own site loads it: a same-origin resource policy would make the browser refuse it.
  assert.equal(embed.headers['cross-origin-resource-policy'], 'cross-origin');
  assert.equal(plain.headers['cross-origin-resource-policy'], 'same-origin', "the page's own assets stay same-origin");
  const icon = await w.t.app.inject({ method: 'GET', url: '/favicon.ico' });
  assert.equal(icon.statusCode, 200);
  assert.ok(icon.rawPayload.length > 0);
});

test("JSON answers are compressed when accepted, the availability route's bytes included; small ones are not", async () => {
  const w = await pageShop({ units: 3 });
  const url = `${BOOK}/availability?service_id=${w.serviceId}&from_date=2026-06-02&to_date=2026-06-30`;
  const plain = await w.t.app.inject({ method: 'GET', url });
  assert.equal(plain.statusCode, 200);
  assert.equal(plain.headers['content-encoding'], undefined);
  const gz = await w.t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.deepEqual(JSON.parse(gunzipSync(gz.rawPayload).toString()), JSON.parse(plain.body));
  const br = await w.t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
  assert.equal(br.headers['content-encoding'], 'br');
  const decoded = brotliDecompressSync(br.rawPayload);
  assert.deepEqual(JSON.parse(decoded.toString()), JSON.parse(plain.body));
  assert.ok(br.rawPayload.length * 5 < decoded.length, `compressed ${br.rawPayload.length} of ${decoded.length} bytes`);
  const small = await w.t.app.inject({
    method: 'GET',
    url: `${BOOK}/challenge`,
    headers: { 'accept-encoding': 'gzip' },
  });
  assert.equal(small.headers['content-encoding'], undefined);
});

test('the event stream is never compressed, and its events arrive as they happen', async () => {
  const w = await pageShop();
  await w.t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(w.t.app.server.address() as AddressInfo).port}`;
  const s = await connectSse(base, `/api/v1/events/stream?store_id=${w.storeId}`, {
    authorization: `Bearer ${w.merchant}`,
    'accept-encoding': 'gzip, br',
  });
  try {
    assert.equal(s.status, 200);
    assert.equal(s.headers['content-encoding'], undefined);
    await w.t.db.query(
      `INSERT INTO events (store_id, type, occurred_at, occurred_at_local, timezone, data)
                        VALUES ($1, 'store.updated', now(), '2026-06-01T10:00:00', 'Europe/London', '{}')`,
      [w.storeId],
    );
    const messages = await s.waitFor(1, 10_000);
    assert.equal(messages[0].event, 'store.updated');
  } finally {
    s.close();
  }
});
