// Slugs the page's own routes use cannot name a shop (issue 41: the slug "assets" was accepted, and
// its manage link, /book/assets/manage, was the static files' route). Refused by a constraint, at the
// merchant's PATCH and the operator's alike, and nothing is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../support/http.ts';
import { ADMIN_TOKEN } from '../support/app.ts';
import { pageShop } from './support.ts';
import { RESERVED_SLUGS } from '../../src/bookings/settings/booking-page-slug.ts';

const SETTINGS = '/api/v1/bookings/settings';

test('every reserved slug is refused 400 BOOKING_PAGE_SLUG_RESERVED and leaves the slug as it was', async () => {
  const w = await pageShop();
  for (const slug of ['assets', 'embed', 'manage', ...RESERVED_SLUGS]) {
    const res = await call(w.t.app, 'PATCH', SETTINGS, {
      token: w.merchant,
      body: { store_id: w.storeId, booking_page_slug: slug },
    });
    assert.equal(res.status, 400, slug);
    assert.equal(errorCode(res), 'BOOKING_PAGE_SLUG_RESERVED', slug);
    assert.match(res.body.error.message, /assets/);
  }
  const row = (
    await w.t.db.query('SELECT booking_page_slug, booking_page_enabled FROM stores WHERE id = $1', [w.storeId])
  ).rows[0];
  assert.deepEqual(row, { booking_page_slug: w.slug, booking_page_enabled: true });
  const admin = await call(w.t.app, 'PATCH', `/admin/v1/stores/${w.storeId}`, {
    token: ADMIN_TOKEN,
    body: { booking_page_slug: 'assets' },
  });
  assert.equal(admin.status, 400);
  assert.equal(errorCode(admin), 'BOOKING_PAGE_SLUG_RESERVED');
  // A slug that merely contains a reserved word is fine.
  const ok = await call(w.t.app, 'PATCH', SETTINGS, {
    token: w.merchant,
    body: { store_id: w.storeId, booking_page_slug: 'assets-and-co' },
  });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.body.settings.booking_page_slug, 'assets-and-co');
});
