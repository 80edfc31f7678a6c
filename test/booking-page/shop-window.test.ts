// The shop's details (issue 41): address, phone, website and about are store settings, bounded and
// validated (a refusal changes nothing), and the booking page's public config shows them with a map
// link and the week's opening hours.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../support/http.ts';
import { pageShop, BOOK } from './support.ts';
import { ALL_WEEK, putHours } from '../bookings/online/helpers.ts';

const SETTINGS = '/api/v1/bookings/settings';

test('shop details: saved trimmed, the phone as E.164 (landline or mobile), blank clears; shown in GET', async () => {
  const w = await pageShop();
  const patch = (body: Record<string, unknown>) =>
    call(w.t.app, 'PATCH', SETTINGS, { token: w.merchant, body: { store_id: w.storeId, ...body } });

  const set = await patch({
    address: '  12 High Street\nLeeds LS1 4AB ',
    phone: '0113 496 0000',
    website: 'https://salon.example/book',
    about: 'Cuts and colour since 1990.',
  });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  assert.equal(set.body.settings.address, '12 High Street\nLeeds LS1 4AB');
  assert.equal(set.body.settings.phone, '+441134960000');
  assert.equal(set.body.settings.website, 'https://salon.example/book');
  assert.equal(set.body.settings.about, 'Cuts and colour since 1990.');

  const mobile = await patch({ phone: '+44 (0)7812 345678' });
  assert.equal(mobile.status, 200);
  assert.equal(mobile.body.settings.phone, '+447812345678');

  const read = await call(w.t.app, 'GET', SETTINGS, { token: w.merchant, query: { store_id: w.storeId } });
  assert.equal(read.body.settings.phone, '+447812345678');
  assert.equal(read.body.settings.address, '12 High Street\nLeeds LS1 4AB');

  const cleared = await patch({ about: '   ', website: null });
  assert.equal(cleared.status, 200);
  assert.equal(cleared.body.settings.about, null);
  assert.equal(cleared.body.settings.website, null);
  const row = await w.t.db.query<{ about: string | null; website: string | null; phone: string }>(
    'SELECT about, website, phone FROM stores WHERE id = $1',
    [w.storeId],
  );
  assert.deepEqual(row.rows[0], { about: null, website: null, phone: '+447812345678' });
});

test('shop details: malformed or overlong values are refused in the envelope by name and change nothing', async () => {
  const w = await pageShop();
  const patch = (body: Record<string, unknown>) =>
    call(w.t.app, 'PATCH', SETTINGS, { token: w.merchant, body: { store_id: w.storeId, ...body } });
  const before = await patch({
    address: '1 Old Road',
    phone: '07812 345678',
    website: 'https://old.example',
    about: 'Before',
  });
  assert.equal(before.status, 200);

  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ phone: '+1 212 555 0100' }, 'INVALID_SHOP_DETAILS', 'phone'],
    [{ phone: '07700 900123' }, 'INVALID_SHOP_DETAILS', 'phone'], // Ofcom's drama range: not a number
    [{ phone: '09065 123456' }, 'INVALID_SHOP_DETAILS', 'phone'], // premium rate
    [{ phone: 'call us' }, 'INVALID_SHOP_DETAILS', 'phone'],
    [{ website: 'http://shop.example' }, 'INVALID_SHOP_DETAILS', 'website'],
    [{ website: 'javascript:alert(1)' }, 'INVALID_SHOP_DETAILS', 'website'],
    [{ website: 'https://user:pw@shop.example' }, 'INVALID_SHOP_DETAILS', 'website'],
    [{ website: 'https://localhost' }, 'INVALID_SHOP_DETAILS', 'website'],
    [{ about: 'x'.repeat(601) }, 'VALIDATION_FAILED', 'about'],
    [{ address: 'a'.repeat(301) }, 'VALIDATION_FAILED', 'address'],
    [{ address: 'Bell\u0007 Lane' }, 'INVALID_SHOP_DETAILS', 'address'],
    [{ website: 'https://shop.example/' + 'p'.repeat(300) }, 'VALIDATION_FAILED', 'website'],
    // A good field beside a bad one: nothing is written.
    [{ about: 'After', phone: '12345' }, 'INVALID_SHOP_DETAILS', 'phone'],
  ];
  for (const [body, code, field] of cases) {
    const res = await patch(body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(errorCode(res), code, JSON.stringify(res.body));
    assert.match(res.body.error.message, new RegExp(field), JSON.stringify(res.body));
  }
  const row = await w.t.db.query('SELECT address, phone, website, about FROM stores WHERE id = $1', [w.storeId]);
  assert.deepEqual(row.rows[0], {
    address: '1 Old Road',
    phone: '+447812345678',
    website: 'https://old.example/',
    about: 'Before',
  });
});

test("the page's public config carries the shop's details, an OpenStreetMap link and the week's hours, Monday first", async () => {
  const w = await pageShop({ units: 2 });
  // Chair 1: 09:00-17:00 every day (the shop helper). Chair 2: later on Mondays, closed Sundays.
  const { sunday: _closed, ...week } = ALL_WEEK([{ open: '10:00', close: '19:30' }]);
  assert.equal((await putHours(w.t, w.merchant, w.units[1], week)).status, 200);
  await w.t.db.query('UPDATE units SET online_bookable = false WHERE id = $1', [w.units[0]]);
  await call(w.t.app, 'PATCH', SETTINGS, {
    token: w.merchant,
    body: { store_id: w.storeId, address: '12 High Street\nLeeds LS1 4AB', phone: '0113 496 0000' },
  });

  const res = await call(w.t.app, 'GET', BOOK);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const shop = res.body.page.shop;
  assert.equal(shop.address, '12 High Street\nLeeds LS1 4AB');
  assert.equal(shop.phone, '+441134960000');
  assert.equal(shop.phone_display, '0113 496 0000');
  assert.equal(shop.website, null);
  assert.equal(shop.about, null);
  assert.equal(shop.map_url, 'https://www.openstreetmap.org/search?query=12%20High%20Street%2C%20Leeds%20LS1%204AB');
  // Only units bookable online count: Chair 1 is not, so Sunday is closed and the hours are Chair 2's.
  assert.deepEqual(
    shop.opening_hours.map((d: any) => [d.weekday, d.open, d.close]),
    [1, 2, 3, 4, 5, 6].map((d) => [d, '10:00', '19:30']),
  );

  await w.t.db.query('UPDATE units SET online_bookable = true WHERE id = $1', [w.units[0]]);
  const both = (await call(w.t.app, 'GET', BOOK)).body.page.shop.opening_hours;
  assert.deepEqual(
    both.map((d: any) => [d.weekday, d.open, d.close]),
    [...[1, 2, 3, 4, 5, 6].map((d) => [d, '09:00', '19:30']), [0, '09:00', '17:00']],
  );
});
