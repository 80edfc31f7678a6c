import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { auditActions, insertAppointment } from '../diary/fixtures.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const store = await t.fx.store();
const other = await t.fx.store({ name: 'Other' });
const token = await t.fx.merchantToken(store.id);
const readOnly = await t.fx.merchantToken(store.id, { scopes: ['merchant:read'] });
const base = '/api/v1/bookings/time-off';

const create = (body: Record<string, unknown>, tok = token) =>
  call(t.app, 'POST', base, { token: tok, body: { store_id: store.id, ...body } });
const countTimeOff = async (unitId: string) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM time_off WHERE unit_id = $1', [unitId])).rows[0].n;

test('time-off is created on a unit of the store with its kind and reason, audited', async () => {
  const unit = await t.fx.unit(store.id);
  const res = await create({
    unit_id: unit.id,
    starts_at: '2026-06-03T12:00:00Z',
    ends_at: '2026-06-03T13:00:00Z',
    kind: 'block',
    reason: 'Lunch',
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const entry = res.body.time_off;
  assert.deepEqual(
    { ...entry, id: undefined },
    {
      id: undefined,
      unit_id: unit.id,
      starts_at: '2026-06-03T12:00:00.000Z',
      ends_at: '2026-06-03T13:00:00.000Z',
      kind: 'block',
      reason: 'Lunch',
    },
  );
  const row = (
    await t.db.query('SELECT store_id, unit_id, kind, reason, created_by FROM time_off WHERE id = $1', [entry.id])
  ).rows[0];
  assert.deepEqual(row, {
    store_id: store.id,
    unit_id: unit.id,
    kind: 'block',
    reason: 'Lunch',
    created_by: 'staff-1',
  });
  assert.deepEqual(await auditActions(t.db, entry.id), ['time_off.created']);
});

test('a time-off entry appears in the diary, and is gone once deleted', async () => {
  const unit = await t.fx.unit(store.id, { display_name: 'Diary chair' });
  const res = await create({
    unit_id: unit.id,
    starts_at: '2026-06-04T08:00:00Z',
    ends_at: '2026-06-04T16:00:00Z',
    kind: 'time_off',
  });
  const id = res.body.time_off.id;
  const read = () =>
    call(t.app, 'GET', '/api/v1/bookings/diary', {
      token,
      query: { store_id: store.id, from_date: '2026-06-04', to_date: '2026-06-04', unit_id: unit.id },
    });
  assert.deepEqual((await read()).body.units[0].time_off, [
    { id, starts_at: '2026-06-04T08:00:00.000Z', ends_at: '2026-06-04T16:00:00.000Z', kind: 'time_off', reason: null },
  ]);
  const del = await call(t.app, 'DELETE', `${base}/${id}`, { token, query: { store_id: store.id } });
  assert.equal(del.status, 200);
  assert.deepEqual(del.body, { time_off_id: id, removed: true });
  assert.deepEqual((await read()).body.units[0].time_off, []);
  assert.deepEqual(await auditActions(t.db, id), ['time_off.created', 'time_off.removed']);
});

test('deleting is idempotent: a repeat answers removed false', async () => {
  const unit = await t.fx.unit(store.id);
  const id = (
    await create({
      unit_id: unit.id,
      starts_at: '2026-06-05T08:00:00Z',
      ends_at: '2026-06-05T09:00:00Z',
      kind: 'block',
    })
  ).body.time_off.id;
  const first = await call(t.app, 'DELETE', `${base}/${id}`, { token, query: { store_id: store.id } });
  const again = await call(t.app, 'DELETE', `${base}/${id}`, { token, query: { store_id: store.id } });
  assert.deepEqual(first.body, { time_off_id: id, removed: true });
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, { time_off_id: id, removed: false });
  assert.equal(await countTimeOff(unit.id), 0);
});

test('time-off over live appointments is refused with SLOT_TAKEN unless override', async () => {
  const unit = await t.fx.unit(store.id);
  // The occupied block (buffers included) counts, not only the told time.
  await t.db.query(
    `INSERT INTO appointments (store_id, unit_id, starts_at, ends_at, block, status, currency)
     VALUES ($1, $2, '2026-06-06T10:00:00Z', '2026-06-06T11:00:00Z', tstzrange('2026-06-06T10:00:00Z', '2026-06-06T11:15:00Z'), 'confirmed', 'GBP')`,
    [store.id, unit.id],
  );
  const clash = await create({
    unit_id: unit.id,
    starts_at: '2026-06-06T11:10:00Z',
    ends_at: '2026-06-06T12:00:00Z',
    kind: 'time_off',
  });
  assert.equal(clash.status, 409);
  assert.equal(errorCode(clash), 'SLOT_TAKEN');
  assert.equal(await countTimeOff(unit.id), 0);
  const forced = await create({
    unit_id: unit.id,
    starts_at: '2026-06-06T11:10:00Z',
    ends_at: '2026-06-06T12:00:00Z',
    kind: 'time_off',
    override: true,
  });
  assert.equal(forced.status, 200);
  assert.equal(await countTimeOff(unit.id), 1);
  const live = (await t.db.query(`SELECT status FROM appointments WHERE unit_id = $1`, [unit.id])).rows[0];
  assert.equal(live.status, 'confirmed');
});

test('cancelled and no-show appointments do not stand in the way of time-off', async () => {
  const unit = await t.fx.unit(store.id);
  const at = { storeId: store.id, unitId: unit.id, startsAt: '2026-06-07T10:00:00Z', endsAt: '2026-06-07T11:00:00Z' };
  await insertAppointment(t.db, { ...at, status: 'cancelled' });
  await insertAppointment(t.db, { ...at, status: 'no_show' });
  const res = await create({
    unit_id: unit.id,
    starts_at: '2026-06-07T10:00:00Z',
    ends_at: '2026-06-07T11:00:00Z',
    kind: 'time_off',
  });
  assert.equal(res.status, 200);
});

test('time-off refuses a booking over it (the booking authority sees it)', async () => {
  const unit = await t.fx.unit(store.id);
  await create({
    unit_id: unit.id,
    starts_at: '2026-06-08T12:00:00Z',
    ends_at: '2026-06-08T13:00:00Z',
    kind: 'block',
    reason: 'Lunch',
  });
  const attempt = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token,
    body: {
      store_id: store.id,
      unit_id: unit.id,
      starts_at: '2026-06-08T12:30:00Z',
      ends_at: '2026-06-08T13:30:00Z',
      guest_name: 'G',
      guest_email: 'g@example.com',
    },
  });
  assert.equal(attempt.status, 409);
  assert.equal(errorCode(attempt), 'UNIT_UNAVAILABLE');
  assert.equal((await t.db.query('SELECT 1 FROM appointments WHERE unit_id = $1', [unit.id])).rowCount, 0);
});

test('an end not after the start, an unknown kind and a long reason are refused', async () => {
  const unit = await t.fx.unit(store.id);
  const backwards = await create({
    unit_id: unit.id,
    starts_at: '2026-06-09T12:00:00Z',
    ends_at: '2026-06-09T12:00:00Z',
    kind: 'block',
  });
  assert.equal(backwards.status, 400);
  assert.equal(errorCode(backwards), 'INVALID_TIME_RANGE');
  const kind = await create({
    unit_id: unit.id,
    starts_at: '2026-06-09T12:00:00Z',
    ends_at: '2026-06-09T13:00:00Z',
    kind: 'holiday',
  });
  assert.equal(kind.status, 400);
  assert.equal(errorCode(kind), 'VALIDATION_FAILED');
  const reason = await create({
    unit_id: unit.id,
    starts_at: '2026-06-09T12:00:00Z',
    ends_at: '2026-06-09T13:00:00Z',
    kind: 'block',
    reason: 'x'.repeat(501),
  });
  assert.equal(reason.status, 400);
  assert.equal(await countTimeOff(unit.id), 0);
});

test('writes need merchant:write', async () => {
  const unit = await t.fx.unit(store.id);
  const res = await create(
    { unit_id: unit.id, starts_at: '2026-06-09T12:00:00Z', ends_at: '2026-06-09T13:00:00Z', kind: 'block' },
    readOnly,
  );
  assert.equal(res.status, 403);
  assert.equal(errorCode(res), 'INSUFFICIENT_SCOPE');
});

test("another store's unit is 404 on create; another store's entry is not removed", async () => {
  const theirs = await t.fx.unit(other.id);
  const res = await create({
    unit_id: theirs.id,
    starts_at: '2026-06-09T12:00:00Z',
    ends_at: '2026-06-09T13:00:00Z',
    kind: 'block',
  });
  assert.equal(res.status, 404);
  assert.equal(errorCode(res), 'NOT_FOUND');
  assert.equal(await countTimeOff(theirs.id), 0);
  const otherToken = await t.fx.merchantToken(other.id);
  const theirEntry = (
    await create(
      { unit_id: theirs.id, starts_at: '2026-06-09T12:00:00Z', ends_at: '2026-06-09T13:00:00Z', kind: 'block' },
      otherToken,
    )
  ).body.time_off.id;
  const del = await call(t.app, 'DELETE', `${base}/${theirEntry}`, { token, query: { store_id: store.id } });
  assert.deepEqual(del.body, { time_off_id: theirEntry, removed: false });
  assert.equal(await countTimeOff(theirs.id), 1);
});
