// The booking page's settings (slug, switch) and its public reads: the page, its times, the challenge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../support/http.ts';
import { ADMIN_TOKEN } from '../support/app.ts';
import { pageShop, setStore, solved, BOOK, SLUG } from './support.ts';

const SETTINGS = '/api/v1/bookings/settings';

test('booking page settings: off by default, a slug is unique across stores (409), enabling needs a slug (400), shown in GET', async () => {
  const w = await pageShop();
  const other = await w.t.fx.store({ name: 'Other Shop' });
  const otherToken = await w.t.fx.merchantToken(other.id);

  const fresh = await call(w.t.app, 'GET', SETTINGS, { token: otherToken, query: { store_id: other.id } });
  assert.equal(fresh.status, 200);
  assert.equal(fresh.body.settings.booking_page_slug, null);
  assert.equal(fresh.body.settings.booking_page_enabled, false);

  const needsSlug = await call(w.t.app, 'PATCH', SETTINGS, {
    token: otherToken,
    body: { store_id: other.id, booking_page_enabled: true },
  });
  assert.equal(needsSlug.status, 400);
  assert.equal(errorCode(needsSlug), 'BOOKING_PAGE_SLUG_REQUIRED');

  const taken = await call(w.t.app, 'PATCH', SETTINGS, {
    token: otherToken,
    body: { store_id: other.id, booking_page_slug: SLUG },
  });
  assert.equal(taken.status, 409);
  assert.equal(errorCode(taken), 'BOOKING_PAGE_SLUG_TAKEN');

  const badSlug = await call(w.t.app, 'PATCH', SETTINGS, {
    token: otherToken,
    body: { store_id: other.id, booking_page_slug: 'Not A Slug' },
  });
  assert.equal(badSlug.status, 400);
  assert.equal(errorCode(badSlug), 'VALIDATION_FAILED');

  const set = await call(w.t.app, 'PATCH', SETTINGS, {
    token: otherToken,
    body: { store_id: other.id, booking_page_slug: 'other-shop', booking_page_enabled: true },
  });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  assert.equal(set.body.settings.booking_page_slug, 'other-shop');
  assert.equal(set.body.settings.booking_page_enabled, true);
  const rows = await w.t.db.query<{ booking_page_slug: string; booking_page_enabled: boolean }>(
    'SELECT booking_page_slug, booking_page_enabled FROM stores WHERE id = $1',
    [other.id],
  );
  assert.deepEqual(rows.rows[0], { booking_page_slug: 'other-shop', booking_page_enabled: true });

  // The operator's store PATCH takes the same fields, with the same refusals.
  const admin = await call(w.t.app, 'PATCH', `/admin/v1/stores/${other.id}`, {
    token: ADMIN_TOKEN,
    body: { booking_page_slug: SLUG },
  });
  assert.equal(admin.status, 409);
  assert.equal(errorCode(admin), 'BOOKING_PAGE_SLUG_TAKEN');
  const adminOff = await call(w.t.app, 'PATCH', `/admin/v1/stores/${other.id}`, {
    token: ADMIN_TOKEN,
    body: { booking_page_enabled: false },
  });
  assert.equal(adminOff.status, 200);
  assert.equal(adminOff.body.store.booking_page_enabled, false);
  assert.equal(adminOff.body.store.booking_page_slug, 'other-shop');
});

test('getBookingPage shows the store, its online services with variants and add-ons, and staff bookable online; no token needed', async () => {
  const w = await pageShop({ units: 2, settings: { cancellation_window_min: 120, hold_minutes: 7 } });
  await w.t.db.query('UPDATE units SET online_bookable = false WHERE id = $1', [w.units[1]]);
  const hidden = await w.t.fx.service(w.storeId, { name: 'Secret service' });
  await w.t.db.query('UPDATE services SET online_visible = false WHERE id = $1', [hidden.id]);
  await w.t.db.query(
    `UPDATE services SET deposit_policy = '{"amount_pence": 1000}', description = 'A trim' WHERE id = $1`,
    [w.serviceId],
  );
  await w.t.db.query(
    `INSERT INTO service_variants (store_id, service_id, name, duration_min, price_pence) VALUES ($1, $2, 'Long hair', 90, 5000)`,
    [w.storeId, w.serviceId],
  );
  await w.t.db.query(
    `INSERT INTO service_addons (store_id, service_id, name, extra_min, extra_pence) VALUES ($1, $2, 'Wash', 15, 500)`,
    [w.storeId, w.serviceId],
  );

  const res = await call(w.t.app, 'GET', BOOK);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const page = res.body.page;
  assert.equal(page.slug, SLUG);
  assert.equal(page.store_name, 'Test Salon');
  assert.equal(page.timezone, 'Europe/London');
  assert.equal(page.hold_minutes, 7);
  assert.equal(page.cancellation_window_min, 120);
  assert.deepEqual(page.staff, [{ unit_id: w.units[0], name: 'Chair 1' }]);
  assert.equal(page.services.length, 1);
  const s = page.services[0];
  assert.equal(s.id, w.serviceId);
  assert.equal(s.description, 'A trim');
  assert.deepEqual(s.deposit, { amount_pence: 1000 });
  assert.deepEqual(
    s.variants.map((v: any) => [v.name, v.duration_min, v.price_pence]),
    [['Long hair', 90, 5000]],
  );
  assert.deepEqual(
    s.addons.map((a: any) => [a.name, a.extra_min, a.extra_pence]),
    [['Wash', 15, 500]],
  );
  assert.equal(res.headers['cache-control'], 'no-store');
});

test('a disabled or unknown page answers 404 with nothing about the store, for every operation and the HTML', async () => {
  const w = await pageShop();
  await setStore(w.t, w.storeId, { booking_page_enabled: false });
  for (const [method, url] of [
    ['GET', BOOK],
    ['GET', `${BOOK}/challenge`],
    ['GET', `${BOOK}/availability?service_id=${w.serviceId}`],
    ['GET', '/api/v1/book/no-such-shop'],
  ] as const) {
    const res = await call(w.t.app, method, url);
    assert.equal(res.status, 404, url);
    assert.equal(errorCode(res), 'NOT_FOUND');
    assert.equal(res.body.error.message, 'Booking page not found');
    assert.ok(!JSON.stringify(res.body).includes('Test Salon'));
    assert.ok(!JSON.stringify(res.body).includes(w.storeId));
  }
  for (const url of [`/book/${SLUG}`, `/book/${SLUG}/manage`, '/book/no-such-shop']) {
    const html = await w.t.app.inject({ method: 'GET', url });
    assert.equal(html.statusCode, 404, url);
    assert.equal(html.body, 'There is no booking page here.\n');
  }
});

test('searchBookingPageAvailability answers the customer view of the search without a token', async () => {
  const w = await pageShop({ units: 2 });
  await w.t.db.query('UPDATE units SET online_bookable = false WHERE id = $1', [w.units[1]]);
  const res = await call(w.t.app, 'GET', `${BOOK}/availability`, {
    query: { service_id: w.serviceId, from_date: '2026-06-02', to_date: '2026-06-02' },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.store_id, w.storeId);
  const slots = res.body.days[0].slots;
  assert.equal(slots[0].local_time, '09:00');
  assert.ok(
    slots.every((s: any) => s.unit_ids.length === 1 && s.unit_ids[0] === w.units[0]),
    'only units bookable online',
  );
  // A service hidden from customers is unknown to the page.
  await w.t.db.query('UPDATE services SET online_visible = false WHERE id = $1', [w.serviceId]);
  const hidden = await call(w.t.app, 'GET', `${BOOK}/availability`, { query: { service_id: w.serviceId } });
  assert.equal(hidden.status, 404);
});

test('a challenge payload works once; a forged or expired one is refused', async () => {
  const w = await pageShop();
  const payload = await solved(w.t.app);
  const body = (altcha: string) => ({ email: 'once@example.com', altcha });
  const first = await call(w.t.app, 'POST', `${BOOK}/email-code`, { body: body(payload) });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const replay = await call(w.t.app, 'POST', `${BOOK}/email-code`, { body: body(payload) });
  assert.equal(replay.status, 400);
  assert.equal(errorCode(replay), 'CHALLENGE_FAILED');
  const spent = await w.t.db.query('SELECT count(*)::int AS n FROM spent_challenges');
  assert.equal(spent.rows[0].n, 1);

  const decoded = JSON.parse(Buffer.from(await solved(w.t.app), 'base64').toString());
  const forged = Buffer.from(JSON.stringify({ ...decoded, number: decoded.number + 1 })).toString('base64');
  const bad = await call(w.t.app, 'POST', `${BOOK}/email-code`, { body: body(forged) });
  assert.equal(errorCode(bad), 'CHALLENGE_FAILED');

  const late = await solved(w.t.app);
  w.t.clock.advance(11 * 60_000);
  const expired = await call(w.t.app, 'POST', `${BOOK}/email-code`, { body: body(late) });
  assert.equal(errorCode(expired), 'CHALLENGE_FAILED');
  assert.equal(w.smtp.received.length <= 1, true);
});

test("the page's search and challenge keep the search rate limit per client address (429 RATE_LIMITED with Retry-After)", async () => {
  const w = await pageShop({ app: { env: { RATE_LIMIT_SEARCH_PER_MIN: '3' } } });
  for (let i = 0; i < 3; i++) assert.equal((await call(w.t.app, 'GET', `${BOOK}/challenge`)).status, 200);
  const limited = await call(w.t.app, 'GET', `${BOOK}/challenge`);
  assert.equal(limited.status, 429);
  assert.equal(errorCode(limited), 'RATE_LIMITED');
  assert.ok(Number(limited.headers['retry-after']) > 0);
  // The page itself is not limited by it.
  assert.equal((await call(w.t.app, 'GET', BOOK)).status, 200);
});
