// CORS answers only on the customer operations, for origins allowed by the store or CORS_ORIGINS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { hold, search, setStore, shop } from './helpers.ts';

const t = await startTestApp({ now: '2026-06-01T08:00:00Z', env: { CORS_ORIGINS: 'https://all-stores.example' } });
const w = await shop({ t });
await setStore(t, w.storeId, { cors_origins: ['https://shop.example'] });
const other = await shop({ t });
await setStore(t, other.storeId, { cors_origins: ['https://other.example'] });

function preflight(url: string, origin: string, method = 'POST') {
  return t.app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization,content-type',
    },
  });
}

test("preflight: allowed for a store's origin or CORS_ORIGINS on a customer operation; refused otherwise", async () => {
  const ok = await preflight('/api/v1/bookings/holds', 'https://shop.example');
  assert.equal(ok.statusCode, 204);
  assert.equal(ok.headers['access-control-allow-origin'], 'https://shop.example');
  assert.match(String(ok.headers['access-control-allow-methods']), /POST/);
  assert.match(String(ok.headers['access-control-allow-headers']), /authorization/);
  // A page may send back the X-Read-After of its last write (read-your-writes through a replica).
  assert.match(String(ok.headers['access-control-allow-headers']), /x-read-after/);
  assert.equal(
    (await preflight('/api/v1/bookings/availability?x=1', 'https://all-stores.example', 'GET')).headers[
      'access-control-allow-origin'
    ],
    'https://all-stores.example',
  );
  // Refused: no CORS headers, so the browser stops there; the path has no OPTIONS operation for
  // that origin, which the router answers as every other method it lacks (405 with Allow).
  const unknown = await preflight('/api/v1/bookings/holds', 'https://evil.example');
  assert.equal(unknown.statusCode, 405);
  assert.equal(unknown.headers['access-control-allow-origin'], undefined);
  const merchant = await preflight('/api/v1/bookings/appointments', 'https://shop.example');
  assert.equal(merchant.headers['access-control-allow-origin'], undefined);
});

test("actual requests: the store's own origins (and CORS_ORIGINS) get the header; another store's do not; merchant operations never", async () => {
  const mine = await search(w, { from_date: '2026-06-02', to_date: '2026-06-02' }, w.customer, t.app);
  assert.equal(mine.headers['access-control-allow-origin'], undefined, 'no Origin, no CORS');
  const withOrigin = (origin: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/bookings/availability?store_id=${w.storeId}&service_id=${w.serviceId}`,
      headers: { origin, authorization: `Bearer ${w.customer}` },
    });
  assert.equal(
    (await withOrigin('https://shop.example')).headers['access-control-allow-origin'],
    'https://shop.example',
  );
  assert.match(String((await withOrigin('https://shop.example')).headers.vary), /origin/i);
  assert.equal(
    (await withOrigin('https://all-stores.example')).headers['access-control-allow-origin'],
    'https://all-stores.example',
  );
  assert.equal((await withOrigin('https://other.example')).headers['access-control-allow-origin'], undefined);
  const held = await hold(w, { starts_at: '2026-06-02T08:00:00Z' });
  const confirm = await t.app.inject({
    method: 'POST',
    url: `/api/v1/bookings/holds/${held.body.hold.id}/confirm`,
    payload: {},
    headers: { origin: 'https://shop.example', authorization: `Bearer ${w.customer}` },
  });
  assert.equal(confirm.statusCode, 200);
  assert.equal(confirm.headers['access-control-allow-origin'], 'https://shop.example');
  const diary = await t.app.inject({
    method: 'GET',
    url: `/api/v1/bookings/diary?store_id=${w.storeId}&from_date=2026-06-02&to_date=2026-06-02`,
    headers: { origin: 'https://shop.example', authorization: `Bearer ${w.merchant}` },
  });
  assert.equal(diary.statusCode, 200);
  assert.equal(diary.headers['access-control-allow-origin'], undefined);
  const settings = await t.app.inject({
    method: 'GET',
    url: `/api/v1/bookings/settings?store_id=${w.storeId}`,
    headers: { origin: 'https://all-stores.example', authorization: `Bearer ${w.merchant}` },
  });
  assert.equal(settings.headers['access-control-allow-origin'], undefined);
});

test('refusals before the operation runs (no token, a bad query) still answer CORS to an allowed origin, and only to it', async () => {
  const ask = (origin: string, url: string, token?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { origin, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  const url = `/api/v1/bookings/availability?store_id=${w.storeId}&service_id=${w.serviceId}`;
  const noToken = await ask('https://shop.example', url);
  assert.equal(noToken.statusCode, 401);
  assert.equal(noToken.headers['access-control-allow-origin'], 'https://shop.example');
  // The page may read the same headers of a refusal as of an answer: the request id and Retry-After.
  const answered = await ask('https://shop.example', url, w.customer);
  assert.equal(answered.statusCode, 200);
  assert.match(String(answered.headers['access-control-expose-headers']), /x-request-id/);
  assert.match(String(answered.headers['access-control-expose-headers']), /retry-after/);
  assert.match(String(answered.headers['access-control-expose-headers']), /x-read-after/);
  assert.equal(noToken.headers['access-control-expose-headers'], answered.headers['access-control-expose-headers']);
  assert.match(String(noToken.headers.vary), /origin/i);
  assert.equal(noToken.json().error.code, 'UNAUTHENTICATED');
  const badQuery = await ask('https://shop.example', `${url}&from_date=not-a-date`, w.customer);
  assert.equal(badQuery.statusCode, 400);
  assert.equal(badQuery.headers['access-control-allow-origin'], 'https://shop.example');
  // Another store's origin, or one nobody allows: the refusal is still the envelope, without CORS.
  assert.equal((await ask('https://other.example', url)).headers['access-control-allow-origin'], undefined);
  assert.equal((await ask('https://evil.example', url)).headers['access-control-allow-origin'], undefined);
  // Merchant operations never answer CORS, refusals included.
  const merchant = await ask(
    'https://shop.example',
    `/api/v1/bookings/diary?store_id=${w.storeId}&from_date=2026-06-02&to_date=2026-06-02`,
  );
  assert.equal(merchant.statusCode, 401);
  assert.equal(merchant.headers['access-control-allow-origin'], undefined);
});
