// The diary is one statement: the database builds the whole answer as JSON text and the service
// sends that text (diary.repository.ts, db/functions/presenters.sql). These tests pin the round trips, and that
// the text the database writes is what the API has always answered: the units as the units list
// presents them, the appointment as the one-appointment read does, and free text (quotes,
// backslashes, control characters, non-Latin letters) unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { countingDatabase, type CountingDatabase } from '../../support/round-trips.ts';
import { insertAppointment, insertArea, insertHold, insertTimeOff } from './fixtures.ts';
import { DiaryAppointment, DiaryColumn, DiaryResponse, Hold } from '../../../src/bookings/diary/diary.schemas.ts';
import { TimeOffEntry } from '../../../src/bookings/time-off/time-off.schemas.ts';

let counting!: CountingDatabase;
const t = await startTestApp({ now: '2026-04-01T08:00:00Z', wrapDb: (db) => (counting = countingDatabase(db)).db });
const store = await t.fx.store({ timezone: 'Europe/London' });
const token = await t.fx.merchantToken(store.id);
const chair = await t.fx.unit(store.id, { display_name: 'Chair', sort: 2, colour: '#AA3300' });
const room = await t.fx.unit(store.id, { display_name: 'Room', sort: 1, unit_type: 'treatment' });
const diary = (query: Record<string, string | boolean>) =>
  call(t.app, 'GET', '/api/v1/bookings/diary', {
    token,
    query: { store_id: store.id, from_date: '2026-04-02', to_date: '2026-04-03', ...query },
  });

const TEXT = 'Zoë "the \\ best" O\'Brien\n\tçava 東京 🙂 \u0001';

test('a diary is one statement, refusals after the dates included; the one-appointment read is one', async () => {
  await insertAppointment(t.db, {
    storeId: store.id,
    unitId: chair.id,
    startsAt: '2026-04-02T10:00:00Z',
    endsAt: '2026-04-02T11:00:00Z',
  });
  counting.take();
  const ok = await diary({});
  assert.equal(ok.status, 200);
  assert.equal(counting.take().trips, 1);

  const tooLong = await diary({ to_date: '2026-06-30' });
  assert.equal(errorCode(tooLong), 'RANGE_TOO_LONG');
  assert.equal(counting.take().trips, 1);

  const unknownUnit = await diary({ unit_id: '00000000-0000-4000-8000-000000000000' });
  assert.equal(unknownUnit.status, 404);
  assert.equal(counting.take().trips, 1);

  // Dates in the wrong order are refused before the database is asked.
  const backwards = await diary({ from_date: '2026-04-03', to_date: '2026-04-02' });
  assert.equal(errorCode(backwards), 'INVALID_TIME_RANGE');
  assert.equal(counting.take().trips, 0);

  const id = ok.body.units.find((c: any) => c.unit.id === chair.id).appointments[0].id;
  counting.take();
  const one = await call(t.app, 'GET', `/api/v1/bookings/appointments/${id}`, { token });
  assert.equal(one.status, 200);
  assert.equal(counting.take().trips, 1);
});

test("the one-appointment read answers another store's appointment exactly as a missing one: 404 NOT_FOUND", async () => {
  const other = await t.fx.store({ name: 'Other' });
  const otherUnit = await t.fx.unit(other.id);
  const theirs = await insertAppointment(t.db, {
    storeId: other.id,
    unitId: otherUnit.id,
    startsAt: '2026-04-02T10:00:00Z',
    endsAt: '2026-04-02T11:00:00Z',
  });
  const foreign = await call(t.app, 'GET', `/api/v1/bookings/appointments/${theirs}`, { token });
  const missing = await call(t.app, 'GET', '/api/v1/bookings/appointments/00000000-0000-4000-8000-000000000000', {
    token,
  });
  assert.equal(foreign.status, 404);
  assert.equal(errorCode(foreign), 'NOT_FOUND');
  assert.equal(missing.status, 404);
  assert.equal(foreign.body.error.message, missing.body.error.message);
});

test('the units are presented as the units list presents them, in its order', async () => {
  const res = await diary({});
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8/);
  const list = await call(t.app, 'GET', '/api/v1/bookings/units', { token, query: { store_id: store.id } });
  assert.equal(list.status, 200);
  assert.deepEqual(
    res.body.units.map((c: any) => c.unit),
    list.body.units,
  );
  assert.deepEqual(
    res.body.units.map((c: any) => c.unit.id),
    [room.id, chair.id],
  );
});

test('a diary appointment is the one-appointment read without store_id, unit_id, source and guest_note', async () => {
  const area = await insertArea(t.db, store.id, 'Window');
  const id = await insertAppointment(t.db, {
    storeId: store.id,
    unitId: room.id,
    startsAt: '2026-04-03T09:00:00.123Z',
    endsAt: '2026-04-03T09:45:00Z',
    status: 'completed',
    guestName: TEXT,
    guestEmail: 'zoe@example.com',
    pricePence: 4200,
    depositPence: 1000,
    settledPence: 500,
    paymentStatus: 'deposit_paid',
    preferredAreaId: area,
    checkedInAt: '2026-04-03T08:58:00Z',
    completedAt: '2026-04-03T09:46:00Z',
  });
  const res = await diary({ unit_id: room.id });
  const [shown] = res.body.units[0].appointments;
  const one = await call(t.app, 'GET', `/api/v1/bookings/appointments/${id}`, { token });
  const { store_id, unit_id, source, guest_note, ...rest } = one.body.appointment;
  assert.deepEqual(
    { store_id, unit_id, source, guest_note },
    { store_id: store.id, unit_id: room.id, source: 'merchant', guest_note: null },
  );
  assert.deepEqual(shown, rest);
  // Text and instants as written; the balance as the create answers it (4200 - 1000 - 500).
  assert.equal(shown.guest_name, TEXT);
  assert.equal(shown.starts_at, '2026-04-03T09:00:00.123Z');
  assert.equal(shown.completed_at, '2026-04-03T09:46:00.000Z');
  assert.equal(shown.balance_pence, 2700);
  assert.equal(shown.preferred_area_name, 'Window');
});

test('holds and time-off carry their fields, free text unchanged', async () => {
  const hold = await insertHold(t.db, {
    storeId: store.id,
    unitId: chair.id,
    startsAt: '2026-04-02T12:00:00Z',
    endsAt: '2026-04-02T12:30:00Z',
    expiresAt: '2026-04-01T08:10:00Z',
  });
  const open = await insertHold(t.db, {
    storeId: store.id,
    unitId: chair.id,
    startsAt: '2026-04-02T13:00:00Z',
    endsAt: '2026-04-02T13:30:00Z',
  });
  const off = await insertTimeOff(t.db, {
    storeId: store.id,
    unitId: chair.id,
    startsAt: '2026-04-03T12:00:00Z',
    endsAt: '2026-04-03T13:00:00Z',
    kind: 'block',
    reason: TEXT,
  });
  const res = await diary({ unit_id: chair.id });
  const [column] = res.body.units;
  assert.deepEqual(column.holds, [
    {
      id: hold,
      starts_at: '2026-04-02T12:00:00.000Z',
      ends_at: '2026-04-02T12:30:00.000Z',
      expires_at: '2026-04-01T08:10:00.000Z',
    },
    { id: open, starts_at: '2026-04-02T13:00:00.000Z', ends_at: '2026-04-02T13:30:00.000Z', expires_at: null },
  ]);
  assert.deepEqual(column.time_off, [
    {
      id: off,
      starts_at: '2026-04-03T12:00:00.000Z',
      ends_at: '2026-04-03T13:00:00.000Z',
      kind: 'block',
      reason: TEXT,
    },
  ]);
});

// The text bypasses Fastify's serializer, which would drop a field the schema does not list: here the
// statement itself must write exactly the listed fields, at every level.
test('the answer carries exactly the fields the published schema lists, at every level', async () => {
  await insertAppointment(t.db, {
    storeId: store.id,
    unitId: room.id,
    startsAt: '2026-04-02T15:00:00Z',
    endsAt: '2026-04-02T15:30:00Z',
  });
  await insertHold(t.db, {
    storeId: store.id,
    unitId: room.id,
    startsAt: '2026-04-02T16:00:00Z',
    endsAt: '2026-04-02T16:30:00Z',
  });
  await insertTimeOff(t.db, {
    storeId: store.id,
    unitId: room.id,
    startsAt: '2026-04-02T17:00:00Z',
    endsAt: '2026-04-02T18:00:00Z',
  });
  const res = await diary({ unit_id: room.id });
  assert.equal(res.status, 200);
  const keys = (o: object) => Object.keys(o).sort();
  const listed = (schema: { properties: object }) => Object.keys(schema.properties).sort();
  assert.deepEqual(keys(res.body), listed(DiaryResponse));
  const [column] = res.body.units;
  assert.deepEqual(keys(column), listed(DiaryColumn));
  assert.ok(column.appointments.length > 0 && column.holds.length > 0 && column.time_off.length > 0);
  for (const a of column.appointments) assert.deepEqual(keys(a), listed(DiaryAppointment));
  for (const h of column.holds) assert.deepEqual(keys(h), listed(Hold));
  for (const o of column.time_off) assert.deepEqual(keys(o), listed(TimeOffEntry));
});
