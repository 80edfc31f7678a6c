// Variants and add-ons are part of the service record: created with the service or by an update
// item without id, changed by an item with id, archived with is_active false, never deleted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';

const t = await startTestApp();
const URL = '/api/v1/bookings/services';

async function setup() {
  const store = await t.fx.store();
  const token = await t.fx.merchantToken(store.id);
  const create = (body: Record<string, unknown>) =>
    call(t.app, 'POST', URL, { token, body: { store_id: store.id, ...body } });
  const patch = (id: string, body: Record<string, unknown>) =>
    call(t.app, 'PATCH', `${URL}/${id}`, { token, body: { store_id: store.id, ...body } });
  return { store, token, create, patch };
}

const strip = (items: any[]) => items.map(({ id: _id, ...rest }) => rest);

test('variants and add-ons created with the service come back nested, with defaults, in sort order', async () => {
  const { create } = await setup();
  const res = await create({
    name: 'Cut',
    duration_min: 45,
    price_pence: 3000,
    variants: [
      { name: 'Long hair', duration_min: 60, price_pence: 4000, sort: 2 },
      { name: 'Short hair', sort: 1 },
      { name: 'Old style', is_active: false, sort: 3 },
    ],
    addons: [
      { name: 'Wash', extra_min: 10, extra_pence: 500 },
      { name: 'Beard', sort: -1 },
    ],
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const s = res.body.service;
  assert.deepEqual(strip(s.variants), [
    { name: 'Short hair', duration_min: null, price_pence: null, sort: 1, is_active: true },
    { name: 'Long hair', duration_min: 60, price_pence: 4000, sort: 2, is_active: true },
    { name: 'Old style', duration_min: null, price_pence: null, sort: 3, is_active: false },
  ]);
  assert.deepEqual(strip(s.addons), [
    { name: 'Beard', extra_min: 0, extra_pence: 0, sort: -1, is_active: true },
    { name: 'Wash', extra_min: 10, extra_pence: 500, sort: 0, is_active: true },
  ]);
  for (const item of [...s.variants, ...s.addons]) assert.match(item.id, /^[0-9a-f-]{36}$/);
  const rows = await t.db.query('SELECT id, service_id, store_id FROM service_variants WHERE service_id = $1', [s.id]);
  assert.equal(rows.rows.length, 3);
  assert.ok(rows.rows.every((r) => r.store_id === s.store_id));
});

test('an update item with id changes only the fields sent; one without id creates; unlisted items are left alone', async () => {
  const { create, patch } = await setup();
  const s = (
    await create({
      name: 'Cut',
      duration_min: 45,
      variants: [
        { name: 'Long', duration_min: 60, price_pence: 4000, sort: 1 },
        { name: 'Short', sort: 2 },
      ],
      addons: [
        { name: 'Wash', extra_min: 10, extra_pence: 500 },
        { name: 'Style', extra_min: 15 },
      ],
    })
  ).body.service;
  const [long, short] = s.variants;
  const [wash, style] = s.addons;

  const res = await patch(s.id, {
    variants: [
      { id: long.id, price_pence: 4500, duration_min: null },
      { name: 'Kids', price_pence: 1500, sort: 0 },
    ],
    addons: [
      { id: wash.id, extra_pence: 600, name: 'Deep wash' },
      { name: 'Scalp massage', extra_min: 5, sort: 9 },
    ],
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const out = res.body.service;
  assert.equal(out.variants.length, 3);
  assert.deepEqual(
    out.variants.find((v: any) => v.id === long.id),
    { ...long, price_pence: 4500, duration_min: null },
  );
  assert.deepEqual(
    out.variants.find((v: any) => v.id === short.id),
    short,
    'an unlisted variant is unchanged',
  );
  assert.deepEqual(strip([out.variants[0]]), [
    { name: 'Kids', duration_min: null, price_pence: 1500, sort: 0, is_active: true },
  ]);
  assert.deepEqual(
    out.addons.find((a: any) => a.id === wash.id),
    { ...wash, extra_pence: 600, name: 'Deep wash' },
  );
  assert.deepEqual(
    out.addons.find((a: any) => a.id === style.id),
    style,
  );
  assert.equal(out.addons.length, 3);
  const variantRow = await t.db.query('SELECT price_pence, duration_min, name FROM service_variants WHERE id = $1', [
    long.id,
  ]);
  assert.deepEqual(variantRow.rows[0], { price_pence: 4500, duration_min: null, name: 'Long' });
});

test('a variant or add-on is archived with is_active false and restored with true, never deleted', async () => {
  const { create, patch } = await setup();
  const s = (await create({ name: 'Cut', duration_min: 45, variants: [{ name: 'Long' }], addons: [{ name: 'Wash' }] }))
    .body.service;
  const v = s.variants[0];
  const a = s.addons[0];
  const archived = await patch(s.id, {
    variants: [{ id: v.id, is_active: false }],
    addons: [{ id: a.id, is_active: false }],
  });
  assert.deepEqual(archived.body.service.variants, [{ ...v, is_active: false }]);
  assert.deepEqual(archived.body.service.addons, [{ ...a, is_active: false }]);
  const rows = await t.db.query(
    `SELECT (SELECT is_active FROM service_variants WHERE id = $1) AS v, (SELECT is_active FROM service_addons WHERE id = $2) AS a`,
    [v.id, a.id],
  );
  assert.deepEqual(rows.rows[0], { v: false, a: false });
  const restored = await patch(s.id, {
    variants: [{ id: v.id, is_active: true }],
    addons: [{ id: a.id, is_active: true }],
  });
  assert.deepEqual(restored.body.service.variants, [v]);
  assert.deepEqual(restored.body.service.addons, [a]);
  const sameList = await patch(s.id, { variants: [], addons: [] });
  assert.deepEqual(sameList.body.service, s, 'empty arrays change nothing');
});

test("an id that is not this service's variant or add-on is refused, and nothing in the request is applied", async () => {
  const { create, patch, store } = await setup();
  const other = await setup();
  const s = (
    await create({
      name: 'Cut',
      duration_min: 45,
      price_pence: 3000,
      variants: [{ name: 'Long' }],
      addons: [{ name: 'Wash' }],
    })
  ).body.service;
  const sibling = (
    await create({ name: 'Colour', duration_min: 90, variants: [{ name: 'Roots' }], addons: [{ name: 'Gloss' }] })
  ).body.service;
  const foreign = (
    await other.create({ name: 'Theirs', duration_min: 30, variants: [{ name: 'X' }], addons: [{ name: 'Y' }] })
  ).body.service;

  const cases: Array<[Record<string, unknown>, string]> = [
    [{ variants: [{ id: sibling.variants[0].id, name: 'Stolen' }] }, 'body.variants[0].id'],
    [{ variants: [{ name: 'New one' }, { id: foreign.variants[0].id, name: 'Stolen' }] }, 'body.variants[1].id'],
    [{ variants: [{ id: s.addons[0].id, name: 'Not a variant' }] }, 'body.variants[0].id'],
    [{ addons: [{ id: sibling.addons[0].id, extra_pence: 1 }] }, 'body.addons[0].id'],
    [{ addons: [{ id: foreign.addons[0].id, extra_pence: 1 }] }, 'body.addons[0].id'],
    [{ addons: [{ id: '7f6c9a4e-59a7-4b7e-8e43-1f7f3a0b9c11', extra_pence: 1 }] }, 'body.addons[0].id'],
    [{ variants: [{ price_pence: 100 }] }, 'body.variants[0].name'],
    [{ addons: [{ extra_min: 5 }] }, 'body.addons[0].name'],
    [
      {
        variants: [
          { id: s.variants[0].id, sort: 1 },
          { id: s.variants[0].id, sort: 2 },
        ],
      },
      'body.variants[1].id',
    ],
    [{ variants: [{ id: 'nope', name: 'X' }] }, 'variants'],
    [{ addons: [{ name: 'Wash', extra_pence: -1 }] }, 'addons'],
  ];
  for (const [fields, named] of cases) {
    const res = await patch(s.id, { price_pence: 1, ...fields });
    assert.equal(res.status, 400, JSON.stringify(fields));
    assert.equal(errorCode(res), 'VALIDATION_FAILED');
    assert.ok(res.body.error.message.includes(named), `"${res.body.error.message}" should name ${named}`);
  }
  const counts = await t.db.query(
    `SELECT (SELECT count(*)::int FROM service_variants WHERE store_id = $1) AS v, (SELECT count(*)::int FROM service_addons WHERE store_id = $1) AS a,
            (SELECT price_pence FROM services WHERE id = $2) AS price`,
    [store.id, s.id],
  );
  assert.deepEqual(counts.rows[0], { v: 2, a: 2, price: 3000 }, 'the whole update rolled back');
  const untouched = await t.db.query('SELECT name FROM service_variants WHERE id = ANY($1::uuid[]) ORDER BY name', [
    [sibling.variants[0].id, foreign.variants[0].id],
  ]);
  assert.deepEqual(
    untouched.rows.map((r) => r.name),
    ['Roots', 'X'],
  );
});
