import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { auditActions, insertAppointment } from '../diary/fixtures.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const store = await t.fx.store();
const other = await t.fx.store({ name: 'Other Salon' });
const token = await t.fx.merchantToken(store.id);
const otherToken = await t.fx.merchantToken(other.id);
const readOnly = await t.fx.merchantToken(store.id, { scopes: ['merchant:read'] });

const base = '/api/v1/bookings/units';

test('a created unit has every Unit field, defaults filled, and is audited', async () => {
  const res = await call(t.app, 'POST', base, {
    token,
    body: { store_id: store.id, display_name: 'Jo', kind: 'staff', colour: '#AA3300', sort: 2 },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const unit = res.body.unit;
  assert.deepEqual(Object.keys(unit).sort(), [
    'bookable',
    'colour',
    'display_name',
    'id',
    'is_active',
    'kind',
    'online_bookable',
    'photo_url',
    'sort',
    'unit_type',
    'user_id',
  ]);
  assert.deepEqual(
    { ...unit, id: undefined },
    {
      id: undefined,
      display_name: 'Jo',
      kind: 'staff',
      unit_type: null,
      user_id: null,
      colour: '#AA3300',
      photo_url: null,
      sort: 2,
      bookable: true,
      online_bookable: true,
      is_active: true,
    },
  );
  const row = (await t.db.query('SELECT store_id, display_name FROM units WHERE id = $1', [unit.id])).rows[0];
  assert.deepEqual(row, { store_id: store.id, display_name: 'Jo' });
  assert.deepEqual(await auditActions(t.db, unit.id), ['unit.created']);
});

test("the acting store is the token's: a store_id of another store in the body is ignored", async () => {
  const res = await call(t.app, 'POST', base, {
    token,
    body: { store_id: other.id, display_name: 'Mine', kind: 'chair' },
  });
  assert.equal(res.status, 200);
  const row = (await t.db.query('SELECT store_id FROM units WHERE id = $1', [res.body.unit.id])).rows[0];
  assert.equal(row.store_id, store.id);
});

test('creating needs merchant:write and a known kind; unknown fields are refused', async () => {
  const denied = await call(t.app, 'POST', base, {
    token: readOnly,
    body: { store_id: store.id, display_name: 'X', kind: 'staff' },
  });
  assert.equal(denied.status, 403);
  assert.equal(errorCode(denied), 'INSUFFICIENT_SCOPE');
  const badKind = await call(t.app, 'POST', base, {
    token,
    body: { store_id: store.id, display_name: 'X', kind: 'spaceship' },
  });
  assert.equal(badKind.status, 400);
  const extra = await call(t.app, 'POST', base, {
    token,
    body: { store_id: store.id, display_name: 'X', kind: 'staff', colr: '#000000' },
  });
  assert.equal(extra.status, 400);
  assert.equal(errorCode(extra), 'VALIDATION_FAILED');
});

test("the list is the store's own units by sort then name, inactive only when asked", async () => {
  const s = await t.fx.store({ name: 'List Salon' });
  const tok = await t.fx.merchantToken(s.id);
  await t.fx.unit(s.id, { display_name: 'Zed', sort: 1 });
  await t.fx.unit(s.id, { display_name: 'Amy', sort: 1 });
  await t.fx.unit(s.id, { display_name: 'Bob', sort: 0 });
  await t.fx.unit(s.id, { display_name: 'Old', sort: 0, is_active: false });
  await t.fx.unit(other.id, { display_name: 'Theirs' });
  const res = await call(t.app, 'GET', base, { token: tok, query: { store_id: s.id } });
  assert.equal(res.status, 200);
  assert.deepEqual(
    res.body.units.map((u: any) => u.display_name),
    ['Bob', 'Amy', 'Zed'],
  );
  const all = await call(t.app, 'GET', base, { token: tok, query: { store_id: s.id, include_inactive: true } });
  assert.deepEqual(
    all.body.units.map((u: any) => u.display_name),
    ['Bob', 'Old', 'Amy', 'Zed'],
  );
});

test('a partial update changes only the fields sent and is audited with their names', async () => {
  const unit = await t.fx.unit(store.id, { display_name: 'Before', sort: 5 });
  const res = await call(t.app, 'PATCH', `${base}/${unit.id}`, {
    token,
    body: { store_id: store.id, display_name: 'After', unit_type: 'senior', online_bookable: false },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.unit.display_name, 'After');
  assert.equal(res.body.unit.unit_type, 'senior');
  assert.equal(res.body.unit.online_bookable, false);
  assert.equal(res.body.unit.sort, 5);
  const row = (await t.db.query('SELECT display_name, sort, online_bookable FROM units WHERE id = $1', [unit.id]))
    .rows[0];
  assert.deepEqual(row, { display_name: 'After', sort: 5, online_bookable: false });
  const details = (
    await t.db.query(`SELECT details FROM audit_log WHERE entity_id = $1 AND action = 'unit.updated'`, [unit.id])
  ).rows[0];
  assert.deepEqual(details.details.changed_fields, ['display_name', 'unit_type', 'online_bookable']);
});

test('deactivating is the PATCH with is_active false; the unit is kept and can be reactivated', async () => {
  const unit = await t.fx.unit(store.id, { display_name: 'Leaving' });
  // A past appointment does not stand in the way.
  await insertAppointment(t.db, {
    storeId: store.id,
    unitId: unit.id,
    startsAt: '2026-05-01T10:00:00Z',
    endsAt: '2026-05-01T11:00:00Z',
  });
  const res = await call(t.app, 'PATCH', `${base}/${unit.id}`, {
    token,
    body: { store_id: store.id, is_active: false },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.unit.is_active, false);
  assert.equal((await t.db.query('SELECT is_active FROM units WHERE id = $1', [unit.id])).rows[0].is_active, false);
  const back = await call(t.app, 'PATCH', `${base}/${unit.id}`, {
    token,
    body: { store_id: store.id, is_active: true },
  });
  assert.equal(back.body.unit.is_active, true);
  assert.deepEqual(await auditActions(t.db, unit.id), ['unit.deactivated', 'unit.reactivated']);
});

test('a unit with upcoming live appointments cannot be deactivated or made unbookable', async () => {
  const unit = await t.fx.unit(store.id, { display_name: 'Busy' });
  await insertAppointment(t.db, {
    storeId: store.id,
    unitId: unit.id,
    startsAt: '2026-06-02T10:00:00Z',
    endsAt: '2026-06-02T11:00:00Z',
  });
  for (const change of [{ is_active: false }, { bookable: false }]) {
    const res = await call(t.app, 'PATCH', `${base}/${unit.id}`, { token, body: { store_id: store.id, ...change } });
    assert.equal(res.status, 409);
    assert.equal(errorCode(res), 'UNIT_HAS_BOOKINGS');
  }
  const row = (await t.db.query('SELECT is_active, bookable FROM units WHERE id = $1', [unit.id])).rows[0];
  assert.deepEqual(row, { is_active: true, bookable: true });
  assert.deepEqual(await auditActions(t.db, unit.id), []);
  // Once the appointment is cancelled, nothing stands in the way.
  await t.db.query(`UPDATE appointments SET status = 'cancelled' WHERE unit_id = $1`, [unit.id]);
  const ok = await call(t.app, 'PATCH', `${base}/${unit.id}`, {
    token,
    body: { store_id: store.id, is_active: false },
  });
  assert.equal(ok.status, 200);
});

test("another store's unit reads as missing: 404 and nothing changed", async () => {
  const theirs = await t.fx.unit(other.id, { display_name: 'Theirs' });
  const res = await call(t.app, 'PATCH', `${base}/${theirs.id}`, {
    token,
    body: { store_id: store.id, display_name: 'Stolen' },
  });
  assert.equal(res.status, 404);
  assert.equal(errorCode(res), 'NOT_FOUND');
  assert.equal(
    (await t.db.query('SELECT display_name FROM units WHERE id = $1', [theirs.id])).rows[0].display_name,
    'Theirs',
  );
  const mine = await call(t.app, 'GET', base, { token: otherToken, query: { store_id: other.id } });
  assert.ok(mine.body.units.every((u: any) => u.display_name !== 'Jo'));
});

test('a create retried with the same Idempotency-Key makes one unit and replays the answer', async () => {
  const s = await t.fx.store({ name: 'Retry Salon' });
  const tok = await t.fx.merchantToken(s.id);
  const send = () =>
    call(t.app, 'POST', base, {
      token: tok,
      idempotencyKey: 'unit-create-1',
      body: { store_id: s.id, display_name: 'Once', kind: 'room' },
    });
  const first = await send();
  const again = await send();
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, first.body);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  const n = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM units WHERE store_id = $1', [s.id]))
    .rows[0].n;
  assert.equal(n, 1);
});

test('the diary, search, units and time-off operations are published in the OpenAPI document', async () => {
  const res = await call(t.app, 'GET', '/openapi.json');
  const paths = res.body.paths;
  const op = (path: string, method: string) => paths[path]?.[method]?.operationId;
  assert.equal(op('/api/v1/bookings/appointments/search', 'get'), 'searchAppointmentPeople');
  assert.equal(op('/api/v1/bookings/diary', 'get'), 'getDiary');
  assert.equal(op('/api/v1/bookings/units', 'get'), 'listUnits');
  assert.equal(op('/api/v1/bookings/units', 'post'), 'createUnit');
  assert.equal(op('/api/v1/bookings/units/{unitId}', 'patch'), 'updateUnit');
  assert.equal(op('/api/v1/bookings/time-off', 'post'), 'createTimeOff');
  assert.equal(op('/api/v1/bookings/time-off/{timeOffId}', 'delete'), 'deleteTimeOff');
  assert.ok(res.body['x-error-codes'].UNIT_HAS_BOOKINGS);
});
