// Seating a walk-in is one statement (bbo_queue_seat, db/functions/queue-seat.sql), like every other booking write:
// at most 3 round trips whatever the path (first call with an Idempotency-Key, its replay, a repeat, a
// refusal), and it writes what the seat always wrote: the checked-in appointment, the entry assigned,
// one queue.assign audit row, then appointment.created and queue.assigned (the entry as assigned,
// with its unit and the status it had).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { errorCode } from '../../support/http.ts';
import { callSql } from '../../../src/platform/one-statement.ts';
import { countingDatabase, type CountingDatabase } from '../../support/round-trips.ts';
import { appointment, at, entryRow, join, NOW, post, queueWorld } from './queue-fixtures.ts';

let counting!: CountingDatabase;
const t = await startTestApp({ now: NOW, wrapDb: (db) => (counting = countingDatabase(db)).db });

const newEvents = async (storeId: string, since: number) =>
  (
    await t.db.query<{ seq: number; type: string; data: any }>(
      `SELECT seq::int AS seq, type, data FROM events WHERE store_id = $1 AND seq > $2 ORDER BY seq`,
      [storeId, since],
    )
  ).rows;

test('a seat is one statement: first, replay, repeat and refusal each in at most 3 round trips', async () => {
  const w = await queueWorld(t);
  const entry = await join(w, { service_id: w.serviceId, party_size: 2, guest_phone: '+447700900123' });
  await post(w, 'call', { entry_id: entry.entry_id });
  const [{ seq: before }] = (
    await t.db.query<{ seq: number }>('SELECT coalesce(max(seq), 0)::int AS seq FROM events WHERE store_id = $1', [
      w.storeId,
    ])
  ).rows;

  counting.take();
  const first = await post(w, 'assign', { entry_id: entry.entry_id, unit_id: w.unitA });
  const trips = counting.take();
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.deepEqual(trips.sql, [callSql('bbo_queue_seat')]);
  const appointmentId = first.body.appointment_id;
  assert.deepEqual(first.body, { entry_id: entry.entry_id, appointment_id: appointmentId, assigned: true });

  // The appointment: checked in now for the service's 45 minutes, priced per the service (fixed).
  const a = (
    await t.db.query(
      `SELECT unit_id, status, source, starts_at, ends_at, checked_in_at, price_pence, party_size, guest_name, guest_phone, client_token
       FROM appointments WHERE id = $1`,
      [appointmentId],
    )
  ).rows[0];
  assert.deepEqual(a, {
    unit_id: w.unitA,
    status: 'checked_in',
    source: 'walk_in',
    starts_at: NOW,
    ends_at: at(45),
    checked_in_at: NOW,
    price_pence: 3000,
    party_size: 2,
    guest_name: 'Walk In',
    guest_phone: '+447700900123',
    client_token: `walk_in:${entry.entry_id}`,
  });
  assert.deepEqual(await entryRow(t.db, entry.entry_id), {
    status: 'assigned',
    called_at: NOW,
    appointment_id: appointmentId,
    ended_at: null,
    quoted_wait_min: entry.quoted_wait_min,
  });

  const audit = await t.db.query<{ store_id: string; details: unknown }>(
    `SELECT store_id, details FROM audit_log WHERE action = 'queue.assign' AND entity_id = $1`,
    [entry.entry_id],
  );
  assert.deepEqual(audit.rows, [
    {
      store_id: w.storeId,
      details: { appointment_id: appointmentId, unit_id: w.unitA, duration_min: 45, override: false, from: 'called' },
    },
  ]);

  const events = await newEvents(w.storeId, before);
  assert.deepEqual(
    events.map((e) => e.type),
    ['appointment.created', 'queue.assigned'],
  );
  assert.equal(events[0].data.id, appointmentId);
  assert.equal(events[0].data.status, 'checked_in');
  assert.deepEqual(events[1].data, {
    entry_id: entry.entry_id,
    store_id: w.storeId,
    customer_id: null,
    guest_name: 'Walk In',
    guest_phone: '+447700900123',
    service_id: w.serviceId,
    preferred_unit_id: null,
    party_size: 2,
    status: 'assigned',
    joined_at: NOW,
    called_at: NOW,
    quoted_wait_min: entry.quoted_wait_min,
    appointment_id: appointmentId,
    queue_position: null,
    expected_wait_min: null,
    expected_start: null,
    suggested_unit_id: null,
    unit_id: w.unitA,
    previous: { status: 'called' },
  });

  // A repeat answers the seat already made and writes nothing.
  counting.take();
  const repeat = await post(w, 'assign', { entry_id: entry.entry_id, unit_id: w.unitB });
  assert.ok(counting.take().trips <= 3);
  assert.deepEqual(repeat.body, { entry_id: entry.entry_id, appointment_id: appointmentId, assigned: false });
  assert.equal((await newEvents(w.storeId, before)).length, 2);
});

test('a seat with an Idempotency-Key replays its answer; a taken unit is STALE_SLOT, in at most 3 round trips, writing nothing', async () => {
  const w = await queueWorld(t);
  const entry = await join(w);
  const key = 'seat-key-1';
  const seat = () => post(w, 'assign', { entry_id: entry.entry_id, unit_id: w.unitB, duration_min: 20 });
  counting.take();
  const first = await t.app.inject({
    method: 'POST',
    url: '/api/v1/bookings/queue/assign',
    headers: { authorization: `Bearer ${w.token}`, 'idempotency-key': key, 'content-type': 'application/json' },
    payload: { store_id: w.storeId, entry_id: entry.entry_id, unit_id: w.unitB, duration_min: 20 },
  });
  assert.equal(first.statusCode, 200, first.body);
  assert.deepEqual(counting.take().sql, [callSql('bbo_queue_seat')]);
  counting.take();
  const replay = await t.app.inject({
    method: 'POST',
    url: '/api/v1/bookings/queue/assign',
    headers: { authorization: `Bearer ${w.token}`, 'idempotency-key': key, 'content-type': 'application/json' },
    payload: { store_id: w.storeId, entry_id: entry.entry_id, unit_id: w.unitB, duration_min: 20 },
  });
  assert.ok(counting.take().trips <= 3);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.deepEqual(JSON.parse(replay.body), JSON.parse(first.body));
  assert.equal(
    (await t.db.query(`SELECT ends_at FROM appointments WHERE id = $1`, [JSON.parse(first.body).appointment_id]))
      .rows[0].ends_at,
    at(20),
  );
  assert.equal((await seat()).body.assigned, false);

  // Chair A is booked from now: a second walk-in cannot sit there, and keeps its place.
  await appointment(t.db, w.storeId, w.unitA, at(-10), at(30));
  const next = await join(w, { guest_name: 'Second' });
  const appointments = async () =>
    (await t.db.query('SELECT count(*)::int AS n FROM appointments WHERE store_id = $1', [w.storeId])).rows[0].n;
  const count = await appointments();
  counting.take();
  const stale = await post(w, 'assign', { entry_id: next.entry_id, unit_id: w.unitA });
  assert.ok(counting.take().trips <= 3);
  assert.equal(stale.status, 409);
  assert.equal(errorCode(stale), 'STALE_SLOT');
  assert.equal((await entryRow(t.db, next.entry_id)).status, 'waiting');
  assert.equal(await appointments(), count);
});
