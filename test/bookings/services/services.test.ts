// Services: create (defaults, client_token), validation, list, partial update, archive and restore,
// deposit_policy never returned, store scoping.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';

const t = await startTestApp();
const URL = '/api/v1/bookings/services';

const SERVICE_KEYS = [
  'addons',
  'buffer_after_min',
  'buffer_before_min',
  'category',
  'currency',
  'description',
  'duration_min',
  'id',
  'images',
  'is_active',
  'location_type',
  'name',
  'online_visible',
  'party_max',
  'party_min',
  'price_pence',
  'price_type',
  'processing_min',
  'rebook_interval_days',
  'sort',
  'store_id',
  'variants',
];

async function setup(storeFields: Record<string, unknown> = {}) {
  const store = await t.fx.store(storeFields);
  const token = await t.fx.merchantToken(store.id);
  const create = (body: Record<string, unknown>) =>
    call(t.app, 'POST', URL, { token, body: { store_id: store.id, ...body } });
  const patch = (id: string, body: Record<string, unknown>) =>
    call(t.app, 'PATCH', `${URL}/${id}`, { token, body: { store_id: store.id, ...body } });
  const list = (query: Record<string, unknown> = {}) =>
    call(t.app, 'GET', URL, { token, query: { store_id: store.id, ...query } as any });
  return { store, token, create, patch, list };
}

async function serviceRow(id: string) {
  return (await t.db.query('SELECT * FROM services WHERE id = $1', [id])).rows[0];
}

test("create with only the required fields: every field present, defaults applied, currency is the store's", async () => {
  const { store, create } = await setup({ currency: 'EUR' });
  const res = await create({ name: 'Haircut', duration_min: 45 });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const s = res.body.service;
  assert.deepEqual(Object.keys(s).sort(), SERVICE_KEYS);
  assert.deepEqual(
    { ...s, id: undefined },
    {
      id: undefined,
      store_id: store.id,
      category: null,
      name: 'Haircut',
      description: null,
      images: [],
      duration_min: 45,
      price_pence: 0,
      currency: 'EUR',
      price_type: 'fixed',
      party_min: 1,
      party_max: 1,
      buffer_before_min: 0,
      buffer_after_min: 0,
      processing_min: 0,
      location_type: 'on_premises',
      rebook_interval_days: null,
      online_visible: true,
      sort: 0,
      is_active: true,
      variants: [],
      addons: [],
    },
  );
  const row = await serviceRow(s.id);
  assert.equal(row.store_id, store.id);
  assert.equal(row.currency, 'EUR');
  const audits = await t.db.query('SELECT action, entity_id FROM audit_log WHERE store_id = $1', [store.id]);
  assert.deepEqual(audits.rows, [{ action: 'service.create', entity_id: s.id }]);
});

test('create with every field stores and returns them; deposit_policy is stored and never returned', async () => {
  const { create, list, patch } = await setup();
  const body = {
    name: 'Tasting menu',
    duration_min: 120,
    category: 'Dining',
    description: 'Seven courses',
    images: ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/b.png'],
    price_pence: 8500,
    currency: 'USD',
    price_type: 'per_person',
    party_min: 2,
    party_max: 8,
    buffer_before_min: 5,
    buffer_after_min: 15,
    processing_min: 10,
    location_type: 'customer_site',
    rebook_interval_days: 30,
    online_visible: false,
    sort: 7,
    deposit_policy: { kind: 'percent', value: 20, nested: { refundable_until_hours: 48 } },
  };
  const res = await create(body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const { deposit_policy, ...shown } = body;
  const s = res.body.service;
  assert.deepEqual(
    { ...s, id: undefined, store_id: undefined },
    { ...shown, id: undefined, store_id: undefined, is_active: true, variants: [], addons: [] },
  );
  assert.equal('deposit_policy' in s, false);
  assert.deepEqual((await serviceRow(s.id)).deposit_policy, deposit_policy);

  const listed = await list();
  assert.equal('deposit_policy' in listed.body.services[0], false);
  const updated = await patch(s.id, { deposit_policy: { kind: 'fixed', value: 1000 } });
  assert.equal(updated.status, 200);
  assert.equal('deposit_policy' in updated.body.service, false);
  assert.deepEqual((await serviceRow(s.id)).deposit_policy, { kind: 'fixed', value: 1000 });
  await patch(s.id, { deposit_policy: null });
  assert.equal((await serviceRow(s.id)).deposit_policy, null);
  assert.equal(JSON.stringify(updated.body).includes('1000'), false, 'no trace of the policy anywhere in the response');
});

test('party_min alone also sets party_max', async () => {
  const { create } = await setup();
  const res = await create({ name: 'Group class', duration_min: 60, party_min: 4 });
  assert.equal(res.status, 200);
  assert.equal(res.body.service.party_min, 4);
  assert.equal(res.body.service.party_max, 4);
});

// [case, body fields, field the message must name]
const invalid: Array<[string, Record<string, unknown>, string]> = [
  ['a missing name', { name: undefined }, 'name'],
  ['a blank name', { name: '  ' }, 'name'],
  ['a missing duration', { duration_min: undefined }, 'duration_min'],
  ['a negative duration', { duration_min: -5 }, 'duration_min'],
  ['a fractional duration', { duration_min: 30.5 }, 'duration_min'],
  ['a duration as a string', { duration_min: '30' }, 'duration_min'],
  ['a duration over a day', { duration_min: 1441 }, 'duration_min'],
  ['a negative price', { price_pence: -1 }, 'price_pence'],
  ['an absurd price', { price_pence: 10_000_001 }, 'price_pence'],
  ['a lower-case currency', { currency: 'gbp' }, 'currency'],
  ['an unknown price_type', { price_type: 'free' }, 'price_type'],
  ['an unknown location_type', { location_type: 'moon' }, 'location_type'],
  ['a party_min of 0', { party_min: 0 }, 'party_min'],
  ['party_min above party_max', { party_min: 6, party_max: 4 }, 'party_min'],
  ['party_max below the default party_min', { party_max: 0 }, 'party_max'],
  ['a negative buffer before', { buffer_before_min: -1 }, 'buffer_before_min'],
  ['a negative buffer after', { buffer_after_min: -1 }, 'buffer_after_min'],
  ['a negative processing time', { processing_min: -1 }, 'processing_min'],
  ['a negative rebook interval', { rebook_interval_days: -1 }, 'rebook_interval_days'],
  ['an image that is not a URI', { images: ['not a url'] }, 'images'],
  ['a javascript: image URI', { images: ['javascript:alert(1)'] }, 'images'],
  ['a data: image URI', { images: ['data:image/png;base64,AAAA'] }, 'images'],
  ['images given as a string', { images: 'https://cdn.example.com/a.jpg' }, 'images'],
  ['too many images', { images: Array.from({ length: 21 }, (_, i) => `https://cdn.example.com/${i}.jpg`) }, 'images'],
  ['deposit_policy given as a string', { deposit_policy: 'twenty percent' }, 'deposit_policy'],
  ['online_visible as a string', { online_visible: 'yes' }, 'online_visible'],
  ['is_active on create', { is_active: false }, 'is_active'],
  ['an unknown field', { colour: 'red' }, 'colour'],
  ['an empty client_token', { client_token: '' }, 'client_token'],
  [
    'a variant with an id on create',
    { variants: [{ id: '7f6c9a4e-59a7-4b7e-8e43-1f7f3a0b9c11', name: 'Long' }] },
    'variants',
  ],
  ['a variant without a name', { variants: [{ price_pence: 100 }] }, 'variants'],
  ['a variant with a negative price', { variants: [{ name: 'Long', price_pence: -1 }] }, 'variants'],
  ['an add-on with negative minutes', { addons: [{ name: 'Wash', extra_min: -10 }] }, 'addons'],
];

for (const [name, fields, field] of invalid) {
  test(`create refused, naming the field: ${name}`, async () => {
    const { store, create } = await setup();
    const res = await create({ name: 'Haircut', duration_min: 45, ...fields });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(errorCode(res), 'VALIDATION_FAILED');
    assert.ok(res.body.error.message.includes(field), `"${res.body.error.message}" should name ${field}`);
    const count = await t.db.query('SELECT count(*)::int AS n FROM services WHERE store_id = $1', [store.id]);
    assert.equal(count.rows[0].n, 0);
  });
}

test('a partial update changes only the fields sent; nullable fields can be cleared', async () => {
  const { create, patch } = await setup();
  const created = (
    await create({ name: 'Colour', duration_min: 90, price_pence: 6000, category: 'Hair', rebook_interval_days: 42 })
  ).body.service;
  const res = await patch(created.id, {
    price_pence: 6500,
    description: 'Full head',
    category: null,
    rebook_interval_days: null,
  });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.service, {
    ...created,
    price_pence: 6500,
    description: 'Full head',
    category: null,
    rebook_interval_days: null,
  });
  const row = await serviceRow(created.id);
  assert.equal(row.price_pence, 6500);
  assert.equal(row.category, null);
  assert.equal(row.duration_min, 90);
  const same = await patch(created.id, {});
  assert.deepEqual(same.body.service, res.body.service, 'an empty update changes nothing');
});

test('an update is validated like a create', async () => {
  const { create, patch } = await setup();
  const s = (await create({ name: 'Colour', duration_min: 90 })).body.service;
  for (const [fields, field] of [
    [{ price_type: 'free' }, 'price_type'],
    [{ duration_min: -1 }, 'duration_min'],
    [{ images: ['nope'] }, 'images'],
    [{ client_token: 'x' }, 'client_token'],
    [{ name: '' }, 'name'],
    [{ buffer_after_min: 2000 }, 'buffer_after_min'],
  ] as const) {
    const res = await patch(s.id, fields);
    assert.equal(res.status, 400, JSON.stringify(fields));
    assert.equal(errorCode(res), 'VALIDATION_FAILED');
    assert.ok(res.body.error.message.includes(field), res.body.error.message);
  }
  assert.deepEqual((await serviceRow(s.id)).duration_min, 90);
});

test('party_min <= party_max is checked on update, a changed bound against the stored other', async () => {
  const { create, patch } = await setup();
  const s = (await create({ name: 'Table', duration_min: 90, party_min: 2, party_max: 4 })).body.service;
  for (const [fields, stored] of [
    [{ party_min: 5 }, 'party_max (4, stored)'],
    [{ party_max: 1 }, 'party_min (2, stored)'],
    [{ party_min: 6, party_max: 5 }, 'party_max (5)'],
  ] as const) {
    const res = await patch(s.id, fields);
    assert.equal(res.status, 400, JSON.stringify(fields));
    assert.equal(errorCode(res), 'VALIDATION_FAILED');
    assert.match(res.body.error.message, /party_min .* must not be greater than party_max/);
    assert.ok(res.body.error.message.includes(stored), res.body.error.message);
  }
  const row = await serviceRow(s.id);
  assert.deepEqual([row.party_min, row.party_max], [2, 4]);
  const ok = await patch(s.id, { party_min: 4 });
  assert.equal(ok.status, 200);
  assert.deepEqual([ok.body.service.party_min, ok.body.service.party_max], [4, 4]);
  const both = await patch(s.id, { party_min: 6, party_max: 10 });
  assert.deepEqual([both.body.service.party_min, both.body.service.party_max], [6, 10]);
});

test('archive and restore: is_active false hides the service from the list without deleting it; true brings it back', async () => {
  const { store, create, patch, list } = await setup();
  const kept = (await create({ name: 'Beard trim', duration_min: 15, sort: 2 })).body.service;
  const s = (
    await create({
      name: 'Blow dry',
      duration_min: 30,
      sort: 1,
      variants: [{ name: 'Long hair', price_pence: 3500 }],
      addons: [{ name: 'Treatment', extra_pence: 800 }],
    })
  ).body.service;
  assert.deepEqual(
    (await list()).body.services.map((x: any) => x.id),
    [s.id, kept.id],
  );

  const archived = await patch(s.id, { is_active: false });
  assert.equal(archived.status, 200);
  assert.deepEqual(archived.body.service, { ...s, is_active: false });
  assert.deepEqual(
    (await list()).body.services.map((x: any) => x.id),
    [kept.id],
  );
  const withArchived = await list({ include_archived: true });
  assert.deepEqual(
    withArchived.body.services.map((x: any) => [x.id, x.is_active]),
    [
      [s.id, false],
      [kept.id, true],
    ],
  );
  const row = await serviceRow(s.id);
  assert.equal(row.is_active, false, 'archived, not deleted');
  const options = await t.db.query(
    'SELECT (SELECT count(*)::int FROM service_variants WHERE service_id = $1) AS v, (SELECT count(*)::int FROM service_addons WHERE service_id = $1) AS a',
    [s.id],
  );
  assert.deepEqual(options.rows[0], { v: 1, a: 1 });

  const restored = await patch(s.id, { is_active: true });
  assert.deepEqual(restored.body.service, s);
  assert.deepEqual(
    (await list()).body.services.map((x: any) => x.id),
    [s.id, kept.id],
  );
  const actions = await t.db.query(
    `SELECT action FROM audit_log WHERE store_id = $1 AND entity_id = $2 ORDER BY created_at, id`,
    [store.id, s.id],
  );
  assert.deepEqual(
    actions.rows.map((r) => r.action),
    ['service.create', 'service.archive', 'service.restore'],
  );
});

test('a create retried with the same client_token returns the same service and inserts it (and its variants) once', async () => {
  const { store, create } = await setup();
  const body = {
    client_token: 'svc-1',
    name: 'Massage',
    duration_min: 60,
    variants: [{ name: '90 minutes', duration_min: 90 }],
    addons: [{ name: 'Hot stones', extra_pence: 1000 }],
  };
  const first = await create(body);
  const again = await create(body);
  const different = await create({ ...body, name: 'Something else', price_pence: 99 });
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, first.body);
  assert.deepEqual(different.body, first.body, 'the retry returns the first service unchanged');
  const counts = await t.db.query(
    `SELECT (SELECT count(*)::int FROM services WHERE store_id = $1) AS s,
            (SELECT count(*)::int FROM service_variants WHERE store_id = $1) AS v,
            (SELECT count(*)::int FROM service_addons WHERE store_id = $1) AS a`,
    [store.id],
  );
  assert.deepEqual(counts.rows[0], { s: 1, v: 1, a: 1 });
});

test("another store's service reads as 404 on update and is left untouched; lists show only the token's store", async () => {
  const mine = await setup();
  const theirs = await setup();
  const s = (await theirs.create({ name: 'Their cut', duration_min: 30, price_pence: 2000 })).body.service;
  const res = await call(t.app, 'PATCH', `${URL}/${s.id}`, {
    token: mine.token,
    body: { store_id: theirs.store.id, price_pence: 1, is_active: false },
  });
  assert.equal(res.status, 404);
  assert.equal(errorCode(res), 'NOT_FOUND');
  const row = await serviceRow(s.id);
  assert.equal(row.price_pence, 2000);
  assert.equal(row.is_active, true);
  const listed = await call(t.app, 'GET', URL, {
    token: mine.token,
    query: { store_id: theirs.store.id, include_archived: true },
  });
  assert.deepEqual(listed.body.services, []);
  const created = await call(t.app, 'POST', URL, {
    token: mine.token,
    body: { store_id: theirs.store.id, name: 'Mine', duration_min: 10 },
  });
  assert.equal(created.body.service.store_id, mine.store.id, 'the token store wins over store_id');
  const missing = await mine.patch('7f6c9a4e-59a7-4b7e-8e43-1f7f3a0b9c11', { price_pence: 1 });
  assert.equal(missing.status, 404);
});

test('merchant:read may list services but not create or update them', async () => {
  const { store, create } = await setup();
  const s = (await create({ name: 'Cut', duration_min: 30 })).body.service;
  const readOnly = await t.fx.merchantToken(store.id, { scopes: ['merchant:read'] });
  assert.equal((await call(t.app, 'GET', URL, { token: readOnly, query: { store_id: store.id } })).status, 200);
  const post = await call(t.app, 'POST', URL, {
    token: readOnly,
    body: { store_id: store.id, name: 'X', duration_min: 5 },
  });
  assert.equal(errorCode(post), 'INSUFFICIENT_SCOPE');
  const patched = await call(t.app, 'PATCH', `${URL}/${s.id}`, {
    token: readOnly,
    body: { store_id: store.id, is_active: false },
  });
  assert.equal(errorCode(patched), 'INSUFFICIENT_SCOPE');
  assert.equal((await serviceRow(s.id)).is_active, true);
});

test('a token for a store that does not exist creates nothing and answers 404', async () => {
  const ghost = '0b7f3f4e-2d7a-4c55-9a51-3c1c2f1d9e01';
  const token = await t.fx.merchantToken(ghost);
  const counts = async () =>
    (
      await t.db.query<{ services: number; periods: number; audit: number; ghost: number }>(
        `SELECT (SELECT count(*)::int FROM services) AS services, (SELECT count(*)::int FROM service_periods) AS periods,
            (SELECT count(*)::int FROM audit_log) AS audit,
            (SELECT count(*)::int FROM services WHERE store_id = $1) + (SELECT count(*)::int FROM service_periods WHERE store_id = $1) AS ghost`,
        [ghost],
      )
    ).rows[0];
  const before = await counts();
  const res = await call(t.app, 'POST', URL, { token, body: { store_id: ghost, name: 'Cut', duration_min: 30 } });
  assert.equal(res.status, 404);
  assert.equal(errorCode(res), 'NOT_FOUND');
  const period = await call(t.app, 'POST', '/api/v1/bookings/service-periods', {
    token,
    body: { store_id: ghost, name: 'Lunch', last_seating_offset_min: 10 },
  });
  assert.equal(period.status, 404);
  assert.equal(errorCode(period), 'NOT_FOUND');
  // Nothing was written: no service, no period, no audit row, in any store.
  assert.deepEqual(await counts(), { ...before, ghost: 0 });
  assert.equal(before.ghost, 0);
});
