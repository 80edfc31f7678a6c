// Rules the spec leaves open, as decided in docs/decisions/ (appointments.md, catalogue.md): party size against the service's
// bounds, the longest appointment, one phone rule for guests, and reading one appointment by id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../support/http.ts';
import { BASE, booked, create, post, world } from './appointments/helpers.ts';
import { join, queueWorld } from './queue/queue-fixtures.ts';

const w = await world({ now: '2026-06-01T09:00:00Z' });
const { t } = w;

async function serviceFor(storeId: string, partyMin: number, partyMax: number) {
  const service = await t.fx.service(storeId, { name: `Table ${partyMin}-${partyMax}` });
  await t.db.query('UPDATE services SET party_min = $2, party_max = $3 WHERE id = $1', [
    service.id,
    partyMin,
    partyMax,
  ]);
  return service.id;
}

const count = async (sql: string, params: unknown[]) =>
  Number((await t.db.query<{ n: number }>(sql, params)).rows[0].n);

test("create: party_size outside the service's party_min..party_max is 400 PARTY_SIZE_OUT_OF_RANGE and books nothing", async () => {
  const serviceId = await serviceFor(w.storeId, 2, 6);
  const before = await count('SELECT count(*)::int AS n FROM appointments WHERE store_id = $1', [w.storeId]);
  for (const party_size of [1, 7]) {
    const res = await create(w, {
      service_id: serviceId,
      party_size,
      starts_at: '2026-06-03T10:00:00Z',
      ends_at: '2026-06-03T11:00:00Z',
    });
    assert.equal(res.status, 400);
    assert.equal(errorCode(res), 'PARTY_SIZE_OUT_OF_RANGE');
    assert.match(res.body.error.message, /2 to 6/);
  }
  // The default party of 1 is checked too.
  const omitted = await create(w, {
    service_id: serviceId,
    starts_at: '2026-06-03T10:00:00Z',
    ends_at: '2026-06-03T11:00:00Z',
  });
  assert.equal(errorCode(omitted), 'PARTY_SIZE_OUT_OF_RANGE');
  assert.equal(await count('SELECT count(*)::int AS n FROM appointments WHERE store_id = $1', [w.storeId]), before);
  for (const party_size of [2, 6]) {
    const ok = await create(w, {
      service_id: serviceId,
      party_size,
      starts_at: `2026-06-0${party_size === 2 ? 4 : 5}T10:00:00Z`,
      ends_at: `2026-06-0${party_size === 2 ? 4 : 5}T11:00:00Z`,
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.appointment.party_size, party_size);
  }
  // Without a service there are no bounds but the schema's.
  assert.equal(
    (await create(w, { party_size: 40, starts_at: '2026-06-06T10:00:00Z', ends_at: '2026-06-06T11:00:00Z' })).status,
    200,
  );
});

test('create: an archived service is refused as archived before its party bounds are looked at', async () => {
  const serviceId = await serviceFor(w.storeId, 2, 2);
  await t.db.query('UPDATE services SET is_active = false WHERE id = $1', [serviceId]);
  const res = await create(w, {
    service_id: serviceId,
    party_size: 9,
    starts_at: '2026-06-07T10:00:00Z',
    ends_at: '2026-06-07T11:00:00Z',
  });
  assert.equal(errorCode(res), 'SERVICE_ARCHIVED');
});

test('reschedule keeps the agreed party: a service whose bounds changed since booking does not stop a move', async () => {
  const serviceId = await serviceFor(w.storeId, 1, 4);
  const id = await booked(w, {
    service_id: serviceId,
    party_size: 4,
    starts_at: '2026-06-08T10:00:00Z',
    ends_at: '2026-06-08T11:00:00Z',
  });
  await t.db.query('UPDATE services SET party_max = 2 WHERE id = $1', [serviceId]);
  const moved = await post(w, 'reschedule', {
    appointment_id: id,
    unit_id: w.unitId,
    starts_at: '2026-06-08T12:00:00Z',
    ends_at: '2026-06-08T13:00:00Z',
  });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  assert.equal(
    (await t.db.query<{ party_size: number }>('SELECT party_size FROM appointments WHERE id = $1', [id])).rows[0]
      .party_size,
    4,
  );
});

test("queue join: party_size outside the service's bounds is 400 PARTY_SIZE_OUT_OF_RANGE; without a service only the schema bounds apply", async () => {
  const q = await queueWorld(t);
  await t.db.query('UPDATE services SET party_min = 1, party_max = 3 WHERE id = $1', [q.serviceId]);
  const res = await call(t.app, 'POST', '/api/v1/bookings/queue/join', {
    token: q.token,
    body: { store_id: q.storeId, guest_name: 'Big party', service_id: q.serviceId, party_size: 4 },
  });
  assert.equal(res.status, 400);
  assert.equal(errorCode(res), 'PARTY_SIZE_OUT_OF_RANGE');
  assert.equal(await count('SELECT count(*)::int AS n FROM queue_entries WHERE store_id = $1', [q.storeId]), 0);
  assert.equal((await join(q, { service_id: q.serviceId, party_size: 3 })).party_size, 3);
  assert.equal((await join(q, { party_size: 12 })).party_size, 12);
  t.clock.set('2026-06-01T09:00:00Z');
});

test('the party rule has one home (bbo_party_refusal): the desk and the walk-in queue refuse a party with its words', async () => {
  const q = await queueWorld(t);
  await t.db.query('UPDATE services SET party_min = 2, party_max = 6 WHERE id = $1', [q.serviceId]);
  const rule = async (party: number) =>
    (await t.db.query<{ m: string | null }>('SELECT bbo_party_refusal($1, 2, 6) AS m', [party])).rows[0].m;
  assert.equal(await rule(7), 'party_size 7 does not fit this service, which takes parties of 2 to 6');
  assert.deepEqual([await rule(2), await rule(6), await rule(null as never)], [null, null, null]);
  const desk = await call(t.app, 'POST', BASE, {
    token: q.token,
    body: {
      store_id: q.storeId,
      unit_id: q.unitA,
      service_id: q.serviceId,
      guest_email: 'p@example.com',
      party_size: 7,
      starts_at: '2026-06-03T10:00:00Z',
      ends_at: '2026-06-03T11:00:00Z',
    },
  });
  const queue = await call(t.app, 'POST', '/api/v1/bookings/queue/join', {
    token: q.token,
    body: { store_id: q.storeId, guest_name: 'Seven', service_id: q.serviceId, party_size: 7 },
  });
  for (const res of [desk, queue]) {
    assert.equal(res.status, 400);
    assert.deepEqual([errorCode(res), res.body.error.message], ['PARTY_SIZE_OUT_OF_RANGE', await rule(7)]);
  }
});

test('an appointment lasts at most 24 hours and occupies its unit at most 48: longer is 400 APPOINTMENT_TOO_LONG, on create and on move', async () => {
  const exactly = await create(w, { starts_at: '2026-07-01T00:00:00Z', ends_at: '2026-07-02T00:00:00Z' });
  assert.equal(exactly.status, 200, JSON.stringify(exactly.body));
  const longer = await create(w, { starts_at: '2026-07-03T00:00:00Z', ends_at: '2026-07-04T00:01:00Z' });
  assert.equal(longer.status, 400);
  assert.equal(errorCode(longer), 'APPOINTMENT_TOO_LONG');
  const typo = await create(w, { starts_at: '2026-07-05T10:00:00Z', ends_at: '2027-07-05T11:00:00Z' });
  assert.equal(errorCode(typo), 'APPOINTMENT_TOO_LONG');
  const wideBlock = await create(w, {
    starts_at: '2026-07-10T10:00:00Z',
    ends_at: '2026-07-10T11:00:00Z',
    block_starts_at: '2026-07-09T00:00:00Z',
    block_ends_at: '2026-07-11T00:01:00Z',
  });
  assert.equal(errorCode(wideBlock), 'APPOINTMENT_TOO_LONG');
  const move = await post(w, 'reschedule', {
    appointment_id: exactly.body.appointment.id,
    unit_id: w.unitId,
    starts_at: '2026-07-20T00:00:00Z',
    ends_at: '2026-07-22T00:00:00Z',
  });
  assert.equal(errorCode(move), 'APPOINTMENT_TOO_LONG');
  const row = (
    await t.db.query<{ starts_at: string }>('SELECT starts_at FROM appointments WHERE id = $1', [
      exactly.body.appointment.id,
    ])
  ).rows[0];
  assert.equal(new Date(row.starts_at).toISOString(), '2026-07-01T00:00:00.000Z');
});

test('a guest phone that is a UK mobile is stored as E.164, on an appointment and on a queue entry alike; any other number is kept as typed', async () => {
  const appt = await create(w, {
    guest_phone: ' 07812 345678 ',
    starts_at: '2026-06-10T10:00:00Z',
    ends_at: '2026-06-10T11:00:00Z',
  });
  assert.equal(appt.body.appointment.guest_phone, '+447812345678');
  const foreign = await create(w, {
    guest_phone: '+33 6 12 34 56 78',
    starts_at: '2026-06-10T12:00:00Z',
    ends_at: '2026-06-10T13:00:00Z',
  });
  assert.equal(foreign.body.appointment.guest_phone, '+33 6 12 34 56 78');
  const q = await queueWorld(t);
  const entry = await join(q, { guest_phone: '+44 (0)7812 345678' });
  assert.equal(entry.guest_phone, '+447812345678');
  const stored = await t.db.query<{ guest_phone: string }>('SELECT guest_phone FROM queue_entries WHERE id = $1', [
    entry.entry_id,
  ]);
  assert.equal(stored.rows[0].guest_phone, '+447812345678');
  // Seating copies it to the appointment unchanged: one form everywhere.
  const seated = await call(t.app, 'POST', '/api/v1/bookings/queue/assign', {
    token: q.token,
    body: { store_id: q.storeId, entry_id: entry.entry_id, unit_id: q.unitA },
  });
  assert.equal(seated.status, 200, JSON.stringify(seated.body));
  const appointmentPhone = await t.db.query<{ guest_phone: string }>(
    'SELECT guest_phone FROM appointments WHERE id = $1',
    [seated.body.appointment_id],
  );
  assert.equal(appointmentPhone.rows[0].guest_phone, '+447812345678');
  assert.equal((await join(q, { guest_phone: '020 7946 0123' })).guest_phone, '020 7946 0123');
  t.clock.set('2026-06-01T09:00:00Z');
});

test("GET /appointments/{id} answers one appointment with its diary fields; another store's id answers 404 like a missing one", async () => {
  const serviceId = await serviceFor(w.storeId, 1, 2);
  const id = await booked(w, {
    service_id: serviceId,
    party_size: 2,
    price_pence: 4500,
    guest_phone: '07812 345678',
    starts_at: '2026-06-12T10:00:00Z',
    ends_at: '2026-06-12T11:00:00Z',
  });
  await post(w, 'check-in', { appointment_id: id });
  const res = await call(t.app, 'GET', `${BASE}/${id}`, { token: w.token, query: { store_id: w.storeId } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const a = res.body.appointment;
  assert.equal(a.id, id);
  assert.equal(a.store_id, w.storeId);
  assert.equal(a.unit_id, w.unitId);
  assert.equal(a.service_id, serviceId);
  assert.equal(a.source, 'merchant');
  assert.equal(a.status, 'checked_in');
  assert.equal(a.checked_in_at, '2026-06-01T09:00:00.000Z');
  assert.equal(a.completed_at, null);
  assert.equal(a.cancelled_at, null);
  assert.equal(a.preferred_area_id, null);
  assert.equal(a.preferred_area_name, null);
  assert.equal(a.price_pence, 4500);
  assert.equal(a.balance_pence, 4500);
  assert.equal(a.party_size, 2);
  assert.equal(a.guest_phone, '+447812345678');
  assert.equal(a.starts_at, '2026-06-12T10:00:00.000Z');
  // The same fields as the diary shows for it.
  const diary = await call(t.app, 'GET', '/api/v1/bookings/diary', {
    token: w.token,
    query: { store_id: w.storeId, from_date: '2026-06-12', to_date: '2026-06-12' },
  });
  const inDiary = diary.body.units.flatMap((u: any) => u.appointments).find((x: any) => x.id === id);
  for (const [key, value] of Object.entries(inDiary)) assert.deepEqual(a[key], value, key);

  const other = await t.fx.store();
  const otherToken = await t.fx.merchantToken(other.id);
  const foreign = await call(t.app, 'GET', `${BASE}/${id}`, { token: otherToken });
  assert.equal(foreign.status, 404);
  assert.equal(errorCode(foreign), 'NOT_FOUND');
  const missing = await call(t.app, 'GET', `${BASE}/00000000-0000-4000-8000-000000000000`, { token: otherToken });
  assert.deepEqual({ ...missing.body.error, requestId: null }, { ...foreign.body.error, requestId: null });
  assert.equal(errorCode(await call(t.app, 'GET', `${BASE}/not-a-uuid`, { token: w.token })), 'VALIDATION_FAILED');
  // merchant:read is enough; a customer token is not.
  const reader = await t.fx.merchantToken(w.storeId, { scopes: ['merchant:read'] });
  assert.equal((await call(t.app, 'GET', `${BASE}/${id}`, { token: reader })).status, 200);
  const customer = await t.fx.customer({ name: 'C' });
  assert.equal(
    errorCode(await call(t.app, 'GET', `${BASE}/${id}`, { token: await t.fx.customerToken(customer.id) })),
    'WRONG_TOKEN_KIND',
  );
  // The search route beside it still answers.
  assert.equal(
    (await call(t.app, 'GET', `${BASE}/search`, { token: w.token, query: { store_id: w.storeId, q: 'gail' } })).status,
    200,
  );
});
