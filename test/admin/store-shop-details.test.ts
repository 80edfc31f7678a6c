// The operator's store create and PATCH take the shop's four details (address, phone, website,
// about) as the merchant's settings do (issue 41): normalised the same way, and a malformed one
// refused in the envelope with nothing changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestApp } from '../support/app.ts';
import { call, errorCode } from '../support/http.ts';

const t = await startTestApp();
const admin = (method: string, url: string, body?: unknown) => call(t.app, method, url, { token: ADMIN_TOKEN, body });
const row = async (id: string) =>
  (await t.db.query('SELECT address, phone, website, about FROM stores WHERE id = $1', [id])).rows[0];

test("the operator sets a store's address, phone, website and about, normalised as the settings keep them", async () => {
  const store = await t.fx.store();
  const res = await admin('PATCH', `/admin/v1/stores/${store.id}`, {
    address: ' 12 High Street\r\nLeeds LS1 4AB ',
    phone: '0113 496 0000',
    website: 'https://fade.example',
    about: 'Cuts and shaves since 1998.',
  });
  assert.equal(res.status, 200);
  const expected = {
    address: '12 High Street\nLeeds LS1 4AB',
    phone: '+441134960000',
    website: 'https://fade.example/',
    about: 'Cuts and shaves since 1998.',
  };
  assert.deepEqual(
    {
      address: res.body.store.address,
      phone: res.body.store.phone,
      website: res.body.store.website,
      about: res.body.store.about,
    },
    expected,
  );
  assert.deepEqual({ ...(await row(store.id)) }, expected);

  // Blank is null: the detail is removed.
  const cleared = await admin('PATCH', `/admin/v1/stores/${store.id}`, { about: '  ', phone: null });
  assert.equal(cleared.status, 200);
  assert.equal(cleared.body.store.about, null);
  assert.equal(cleared.body.store.phone, null);
  assert.deepEqual({ ...(await row(store.id)) }, { ...expected, about: null, phone: null });
});

test('a store is created with its details', async () => {
  const res = await admin('POST', '/admin/v1/stores', {
    name: 'Window Shop',
    timezone: 'Europe/London',
    currency: 'GBP',
    phone: '07812 345678',
    website: 'https://window.example',
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.store.phone, '+447812345678');
  assert.equal(res.body.store.website, 'https://window.example/');
  assert.equal(res.body.store.address, null);
  assert.deepEqual(
    { ...(await row(res.body.store.id)) },
    { address: null, phone: '+447812345678', website: 'https://window.example/', about: null },
  );
});

test('a malformed detail is refused by name in the envelope and changes nothing', async () => {
  const store = await t.fx.store();
  await admin('PATCH', `/admin/v1/stores/${store.id}`, { address: '1 Old Road', website: 'https://old.example' });
  const before = await row(store.id);
  for (const [body, field, code] of [
    [{ website: 'http://shop.example', name: 'Renamed' }, 'website', 'INVALID_SHOP_DETAILS'],
    [{ phone: '+1 212 555 0100' }, 'phone', 'INVALID_SHOP_DETAILS'],
    [{ address: 'a\u0007b' }, 'address', 'INVALID_SHOP_DETAILS'],
    [{ about: 'x'.repeat(601) }, 'about', 'VALIDATION_FAILED'],
  ] as const) {
    const res = await admin('PATCH', `/admin/v1/stores/${store.id}`, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(errorCode(res), code);
    assert.match(res.body.error.message, new RegExp(field));
  }
  assert.deepEqual(await row(store.id), before);
  assert.equal((await t.db.query('SELECT name FROM stores WHERE id = $1', [store.id])).rows[0].name, store.name);
  const created = await admin('POST', '/admin/v1/stores', {
    name: 'Refused Shop',
    timezone: 'Europe/London',
    currency: 'GBP',
    website: 'ftp://x.example',
  });
  assert.equal(created.status, 400);
  assert.equal(errorCode(created), 'INVALID_SHOP_DETAILS');
  assert.equal((await t.db.query("SELECT count(*)::int AS n FROM stores WHERE name = 'Refused Shop'")).rows[0].n, 0);
});
