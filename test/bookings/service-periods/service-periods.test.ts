// Service periods: list, create (client_token), partial update, idempotent hard delete, store scoping.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';

const t = await startTestApp();
const URL = '/api/v1/bookings/service-periods';

async function setup(storeFields: Record<string, unknown> = {}) {
  const store = await t.fx.store(storeFields);
  const token = await t.fx.merchantToken(store.id);
  const create = (body: Record<string, unknown>, key?: string) =>
    call(t.app, 'POST', URL, { token, body: { store_id: store.id, ...body }, idempotencyKey: key });
  return { store, token, create };
}

async function rowsOf(storeId: string) {
  return (await t.db.query('SELECT * FROM service_periods WHERE store_id = $1 ORDER BY name, id', [storeId])).rows;
}

test('create returns the period with its defaults and records it, with an audit row', async () => {
  const { store, create } = await setup();
  const res = await create({ name: 'Lunch', week: { monday: { open: '12:00', close: '15:00' } } });
  assert.equal(res.status, 200);
  const p = res.body.period;
  assert.deepEqual(Object.keys(p).sort(), [
    'id',
    'is_active',
    'last_seating_offset_min',
    'name',
    'sort',
    'store_id',
    'week',
  ]);
  assert.equal(p.store_id, store.id);
  assert.equal(p.name, 'Lunch');
  assert.equal(p.sort, 0);
  assert.equal(p.is_active, true);
  assert.equal(p.last_seating_offset_min, 0, 'the store has no offset: 0');
  const rows = await rowsOf(store.id);
  assert.equal(rows.length, 1);
  assert.equal(rows[0].id, p.id);
  const auditRows = await t.db.query(`SELECT action, entity_id FROM audit_log WHERE store_id = $1`, [store.id]);
  assert.deepEqual(auditRows.rows, [{ action: 'service_period.create', entity_id: p.id }]);
});

test("last_seating_offset_min defaults to the store's value, and an explicit value overrides it", async () => {
  const { store, create } = await setup({ last_seating_offset_min: 45 });
  const defaulted = await create({ name: 'Dinner' });
  assert.equal(defaulted.body.period.last_seating_offset_min, 45);
  const explicit = await create({ name: 'Late', last_seating_offset_min: 0 });
  assert.equal(explicit.body.period.last_seating_offset_min, 0);
  const rows = await t.db.query(
    'SELECT name, last_seating_offset_min FROM service_periods WHERE store_id = $1 ORDER BY name',
    [store.id],
  );
  assert.deepEqual(rows.rows, [
    { name: 'Dinner', last_seating_offset_min: 45 },
    { name: 'Late', last_seating_offset_min: 0 },
  ]);
});

test('create refuses bad fields with the field named', async () => {
  const { store, create } = await setup();
  for (const [body, field] of [
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(121) }, 'name'],
    [{ name: 'Lunch', sort: 1.5 }, 'sort'],
    [{ name: 'Lunch', last_seating_offset_min: -1 }, 'last_seating_offset_min'],
    [{ name: 'Lunch', last_seating_offset_min: 1441 }, 'last_seating_offset_min'],
    [{ name: 'Lunch', is_active: false }, 'is_active'],
    [{ name: 'Lunch', client_token: '' }, 'client_token'],
    [{}, 'name'],
  ] as const) {
    const res = await create(body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(errorCode(res), 'VALIDATION_FAILED');
    assert.match(res.body.error.message, new RegExp(`body\\.${field}`));
  }
  assert.equal((await rowsOf(store.id)).length, 0);
});

test('list is ordered by sort then name, and disabled periods appear only with include_archived=true', async () => {
  const { store, token, create } = await setup();
  await create({ name: 'Dinner', sort: 2 });
  await create({ name: 'Breakfast', sort: 1 });
  await create({ name: 'Brunch', sort: 1 });
  const off = await create({ name: 'Afternoon tea', sort: 0 });
  await call(t.app, 'PATCH', `${URL}/${off.body.period.id}`, { token, body: { store_id: store.id, is_active: false } });

  const active = await call(t.app, 'GET', URL, { token, query: { store_id: store.id } });
  assert.equal(active.status, 200);
  assert.deepEqual(
    active.body.periods.map((p: any) => p.name),
    ['Breakfast', 'Brunch', 'Dinner'],
  );
  const all = await call(t.app, 'GET', URL, { token, query: { store_id: store.id, include_archived: true } });
  assert.deepEqual(
    all.body.periods.map((p: any) => p.name),
    ['Afternoon tea', 'Breakfast', 'Brunch', 'Dinner'],
  );
  assert.equal(all.body.periods[0].is_active, false);
});

test('a create retried with the same client_token returns the same period, unchanged, and inserts once', async () => {
  const { store, create } = await setup();
  const first = await create({ client_token: 'tok-1', name: 'Lunch', sort: 3 });
  const again = await create({ client_token: 'tok-1', name: 'Lunch', sort: 3 });
  const changed = await create({ client_token: 'tok-1', name: 'Something else', sort: 9 });
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, first.body);
  assert.deepEqual(changed.body, first.body, 'a retry returns the first period, it does not edit it');
  const other = await create({ client_token: 'tok-2', name: 'Lunch' });
  assert.notEqual(other.body.period.id, first.body.period.id);
  assert.equal((await rowsOf(store.id)).length, 2);
  const audits = await t.db.query(
    `SELECT count(*)::int AS n FROM audit_log WHERE store_id = $1 AND action = 'service_period.create'`,
    [store.id],
  );
  assert.equal(audits.rows[0].n, 2, 'a retry audits nothing');
});

test('an Idempotency-Key retry replays the first answer and creates once', async () => {
  const { store, create } = await setup();
  const first = await create({ name: 'Lunch' }, 'key-1');
  const again = await create({ name: 'Lunch' }, 'key-1');
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, first.body);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.equal((await rowsOf(store.id)).length, 1);
});

test('the same client_token in two stores makes two periods', async () => {
  const a = await setup();
  const b = await setup();
  const pa = await a.create({ client_token: 'shared', name: 'Lunch' });
  const pb = await b.create({ client_token: 'shared', name: 'Lunch' });
  assert.notEqual(pa.body.period.id, pb.body.period.id);
  assert.equal(pb.body.period.store_id, b.store.id);
});

test('concurrent creates with one client_token make one period and all return it', async () => {
  const { store, token } = await setup();
  const other = await t.sibling();
  const body = { store_id: store.id, client_token: 'race', name: 'Dinner' };
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) => call(i % 2 ? other : t.app, 'POST', URL, { token, body })),
  );
  for (const r of results) assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(new Set(results.map((r) => r.body.period.id)).size, 1);
  assert.equal((await rowsOf(store.id)).length, 1);
});

test('update changes only the fields sent, and is_active false then true disables and re-enables', async () => {
  const { store, token, create } = await setup();
  const week = { monday: { open: '12:00', close: '15:00' } };
  const created = (await create({ name: 'Lunch', sort: 1, week, last_seating_offset_min: 30 })).body.period;
  const patch = (body: Record<string, unknown>) =>
    call(t.app, 'PATCH', `${URL}/${created.id}`, { token, body: { store_id: store.id, ...body } });

  const renamed = await patch({ name: 'Long lunch', last_seating_offset_min: 15 });
  assert.equal(renamed.status, 200);
  assert.deepEqual(renamed.body.period, { ...created, name: 'Long lunch', last_seating_offset_min: 15 });

  const disabled = await patch({ is_active: false });
  assert.equal(disabled.body.period.is_active, false);
  let row = (await rowsOf(store.id))[0];
  assert.equal(row.is_active, false, 'disabled, not deleted');
  const listed = await call(t.app, 'GET', URL, { token, query: { store_id: store.id } });
  assert.deepEqual(listed.body.periods, []);

  const enabled = await patch({ is_active: true, sort: 5 });
  assert.deepEqual(enabled.body.period, {
    ...created,
    name: 'Long lunch',
    last_seating_offset_min: 15,
    sort: 5,
    is_active: true,
  });
  row = (await rowsOf(store.id))[0];
  assert.equal(row.is_active, true);
  assert.deepEqual(row.week, week);

  const empty = await patch({});
  assert.deepEqual(empty.body.period, enabled.body.period, 'an empty update changes nothing');
  const audits = await t.db.query(
    `SELECT action, details FROM audit_log WHERE store_id = $1 AND entity_id = $2 ORDER BY id`,
    [store.id, created.id],
  );
  assert.deepEqual(
    audits.rows.map((r) => [r.action, r.details.fields ?? null]),
    [
      ['service_period.create', null],
      ['service_period.update', ['name', 'last_seating_offset_min']],
      ['service_period.update', ['is_active']],
      ['service_period.update', ['is_active', 'sort']],
      ['service_period.update', []],
    ],
  );
});

test('update of an unknown period is 404; a malformed id is refused', async () => {
  const { store, token } = await setup();
  const res = await call(t.app, 'PATCH', `${URL}/7f6c9a4e-59a7-4b7e-8e43-1f7f3a0b9c11`, {
    token,
    body: { store_id: store.id, name: 'X' },
  });
  assert.equal(res.status, 404);
  assert.equal(errorCode(res), 'NOT_FOUND');
  const bad = await call(t.app, 'PATCH', `${URL}/not-a-uuid`, { token, body: { store_id: store.id, name: 'X' } });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error.message, /periodId/);
});

test('delete removes the period; a repeat answers removed false', async () => {
  const { store, token, create } = await setup();
  const p = (await create({ name: 'Lunch' })).body.period;
  const first = await call(t.app, 'DELETE', `${URL}/${p.id}`, { token, query: { store_id: store.id } });
  assert.equal(first.status, 200);
  assert.deepEqual(first.body, { period_id: p.id, removed: true });
  assert.equal((await rowsOf(store.id)).length, 0);
  const again = await call(t.app, 'DELETE', `${URL}/${p.id}`, { token, query: { store_id: store.id } });
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, { period_id: p.id, removed: false });
  const audits = await t.db.query(
    `SELECT count(*)::int AS n FROM audit_log WHERE store_id = $1 AND action = 'service_period.delete'`,
    [store.id],
  );
  assert.equal(audits.rows[0].n, 1);
});

test("another store's period reads as 404 on update and delete, and is left untouched", async () => {
  const mine = await setup();
  const theirs = await setup();
  const p = (await theirs.create({ name: 'Their lunch', sort: 4 })).body.period;

  const patched = await call(t.app, 'PATCH', `${URL}/${p.id}`, {
    token: mine.token,
    body: { store_id: mine.store.id, name: 'Mine now' },
  });
  assert.equal(patched.status, 404);
  assert.equal(errorCode(patched), 'NOT_FOUND');
  // Naming the other store in store_id changes nothing: the token's store wins.
  const spoofed = await call(t.app, 'PATCH', `${URL}/${p.id}`, {
    token: mine.token,
    body: { store_id: theirs.store.id, name: 'Mine now' },
  });
  assert.equal(spoofed.status, 404);
  const deleted = await call(t.app, 'DELETE', `${URL}/${p.id}`, {
    token: mine.token,
    query: { store_id: theirs.store.id },
  });
  // Indistinguishable from an id that exists nowhere, and nothing is removed.
  assert.equal(deleted.status, 200);
  assert.deepEqual(deleted.body, { period_id: p.id, removed: false });

  const rows = await rowsOf(theirs.store.id);
  assert.equal(rows.length, 1);
  assert.equal(rows[0].name, 'Their lunch');
  const listed = await call(t.app, 'GET', URL, {
    token: mine.token,
    query: { store_id: theirs.store.id, include_archived: true },
  });
  assert.deepEqual(listed.body.periods, [], 'the list is always the token store');
});

test('a token with merchant:read may list but not write', async () => {
  const { store } = await setup();
  const readOnly = await t.fx.merchantToken(store.id, { scopes: ['merchant:read'] });
  const list = await call(t.app, 'GET', URL, { token: readOnly, query: { store_id: store.id } });
  assert.equal(list.status, 200);
  const create = await call(t.app, 'POST', URL, { token: readOnly, body: { store_id: store.id, name: 'Lunch' } });
  assert.equal(create.status, 403);
  assert.equal(errorCode(create), 'INSUFFICIENT_SCOPE');
  const none = await call(t.app, 'GET', URL, { query: { store_id: store.id } });
  assert.equal(none.status, 401);
  assert.equal((await rowsOf(store.id)).length, 0);
});
