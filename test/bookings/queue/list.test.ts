import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { NOW, appointment, at, hold, join, list, post, queueWorld, timeOff } from './queue-fixtures.ts';

const t = await startTestApp({ now: NOW });

const pick = (e: any) => ({
  queue_position: e.queue_position,
  suggested_unit_id: e.suggested_unit_id,
  expected_start: e.expected_start,
  expected_wait_min: e.expected_wait_min,
  quoted_wait_min: e.quoted_wait_min,
});

test('derived place, wait, start and unit come from the real diary: appointments, holds and time-off', async () => {
  const w = await queueWorld(t);
  const { db } = w.t;
  const { unitA, unitB, storeId } = w;
  // Chair A: busy until 09:20, off 10:00-11:00, held 11:00-11:30 by an unexpired hold.
  await appointment(db, storeId, unitA, at(-30), at(20));
  await timeOff(db, storeId, unitA, at(60), at(120));
  await hold(db, storeId, unitA, at(120), at(150), at(10));
  // Released time does not count: a cancelled appointment and an expired hold on A 09:20-09:50.
  await appointment(db, storeId, unitA, at(20), at(50), 'cancelled');
  await hold(db, storeId, unitA, at(20), at(50), at(-5));
  // Chair B: busy 09:00-09:40 and 10:00-10:30.
  await appointment(db, storeId, unitB, at(0), at(40));
  await appointment(db, storeId, unitB, at(60), at(90));
  // An inactive chair seats nobody.
  await w.t.fx.unit(storeId, { display_name: 'Chair C', sort: 0, is_active: false });

  const e1 = await join(w, { guest_name: 'One', service_id: w.serviceId }); // 45 min
  const e2 = await join(w, { guest_name: 'Two' }); // 30 min
  const e3 = await join(w, { guest_name: 'Three', preferred_unit_id: unitB });
  const e4 = await join(w, { guest_name: 'Four' });

  const body = await list(w);
  assert.equal(body.store_id, storeId);
  assert.equal(body.walkin_mode, 'mixed');
  assert.equal(body.called_hold_minutes, 10);
  assert.deepEqual(
    body.entries.map((e: any) => e.entry_id),
    [e1.entry_id, e2.entry_id, e3.entry_id, e4.entry_id],
  );
  assert.deepEqual(body.entries.map(pick), [
    // 45 minutes fit neither A at 09:20 (time-off at 10:00) nor B at 09:40 (appointment at 10:00): B at 10:30.
    { queue_position: 1, suggested_unit_id: unitB, expected_start: at(90), expected_wait_min: 90, quoted_wait_min: 90 },
    // 30 minutes fit A's gap 09:20-10:00.
    { queue_position: 2, suggested_unit_id: unitA, expected_start: at(20), expected_wait_min: 20, quoted_wait_min: 20 },
    // Asked for B: behind One there (10:30 + 45).
    {
      queue_position: 3,
      suggested_unit_id: unitB,
      expected_start: at(135),
      expected_wait_min: 135,
      quoted_wait_min: 135,
    },
    // A after its time-off and the hold (11:30) beats B after Three (11:45).
    {
      queue_position: 4,
      suggested_unit_id: unitA,
      expected_start: at(150),
      expected_wait_min: 150,
      quoted_wait_min: 150,
    },
  ]);

  // Ten minutes later waits shrink and starts stay, except that the hold on A lapsed at 09:10 so
  // Four moves up to 11:00; the quotes are snapshots and do not move.
  w.t.clock.advance(10 * 60_000);
  const later = await list(w);
  assert.deepEqual(
    later.entries.map((e: any) => [e.expected_wait_min, e.expected_start, e.quoted_wait_min]),
    [
      [80, at(90), 90],
      [10, at(20), 20],
      [125, at(135), 135],
      [110, at(120), 150],
    ],
  );
});

test('the wire entry carries every field the spec lists', async () => {
  const w = await queueWorld(t);
  const customer = await w.t.fx.customer({ name: 'Cara' });
  await w.t.fx.membership(w.storeId, customer.id);
  await join(w, {
    customer_id: customer.id,
    guest_name: null,
    guest_phone: '+447700900123',
    party_size: 2,
    service_id: w.serviceId,
  });
  const [entry] = (await list(w)).entries;
  assert.deepEqual(Object.keys(entry).sort(), [
    'appointment_id',
    'called_at',
    'customer_id',
    'entry_id',
    'expected_start',
    'expected_wait_min',
    'guest_name',
    'guest_phone',
    'joined_at',
    'party_size',
    'preferred_unit_id',
    'queue_position',
    'quoted_wait_min',
    'service_id',
    'status',
    'store_id',
    'suggested_unit_id',
  ]);
  assert.equal(entry.customer_id, customer.id);
  assert.equal(entry.guest_phone, '+447700900123');
  assert.equal(entry.party_size, 2);
  assert.equal(entry.status, 'waiting');
  assert.equal(entry.joined_at, at(0));
  assert.equal(entry.called_at, null);
  assert.equal(entry.appointment_id, null);
  assert.equal(entry.suggested_unit_id, w.unitA);
  assert.equal(entry.expected_wait_min, 0);
});

test('a preferred unit is honoured even when another unit is free now', async () => {
  const w = await queueWorld(t);
  await appointment(w.t.db, w.storeId, w.unitB, at(-10), at(25));
  const e = await join(w, { preferred_unit_id: w.unitB });
  const [entry] = (await list(w)).entries;
  assert.equal(entry.entry_id, e.entry_id);
  assert.equal(entry.suggested_unit_id, w.unitB);
  assert.equal(entry.expected_start, at(25));
  assert.equal(entry.expected_wait_min, 25);
});

test('positions renumber when an entry is called or leaves; a called entry keeps its seat reserved ahead of the waiting', async () => {
  const w = await queueWorld(t);
  await appointment(w.t.db, w.storeId, w.unitB, at(-10), at(120));
  const e1 = await join(w, { guest_name: 'One' });
  const e2 = await join(w, { guest_name: 'Two' });
  const e3 = await join(w, { guest_name: 'Three' });
  assert.deepEqual(
    (await list(w)).entries.map((e: any) => e.queue_position),
    [1, 2, 3],
  );

  assert.equal((await post(w, 'call', { entry_id: e1.entry_id })).status, 200);
  let entries = (await list(w)).entries;
  assert.deepEqual(
    entries.map((e: any) => [e.entry_id, e.status, e.queue_position]),
    [
      [e1.entry_id, 'called', null],
      [e2.entry_id, 'waiting', 1],
      [e3.entry_id, 'waiting', 2],
    ],
  );
  // The called entry's derived fields are null, but it still occupies chair A 09:00-09:30.
  assert.deepEqual(
    [entries[0].expected_wait_min, entries[0].expected_start, entries[0].suggested_unit_id],
    [null, null, null],
  );
  assert.deepEqual(
    entries.slice(1).map((e: any) => [e.suggested_unit_id, e.expected_wait_min]),
    [
      [w.unitA, 30],
      [w.unitA, 60],
    ],
  );

  assert.equal((await post(w, 'remove', { entry_id: e2.entry_id, status: 'left' })).status, 200);
  entries = (await list(w)).entries;
  assert.deepEqual(
    entries.map((e: any) => [e.entry_id, e.queue_position, e.expected_wait_min]),
    [
      [e1.entry_id, null, null],
      [e3.entry_id, 1, 30],
    ],
  );
});

test('the list shows only waiting and called entries of the authenticated store, in join order', async () => {
  const w = await queueWorld(t);
  const other = await queueWorld(w.t);
  const mine = await join(w, { guest_name: 'Mine' });
  await join(other, { guest_name: 'Theirs' });
  const gone = await join(w, { guest_name: 'Gone' });
  await post(w, 'remove', { entry_id: gone.entry_id, status: 'no_show' });
  const seated = await join(w, { guest_name: 'Seated' });
  await post(w, 'assign', { entry_id: seated.entry_id, unit_id: w.unitB });
  // store_id names another store: the token's store wins.
  const res = await call(w.t.app, 'GET', '/api/v1/bookings/queue', {
    token: w.token,
    query: { store_id: other.storeId },
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.store_id, w.storeId);
  assert.deepEqual(
    res.body.entries.map((e: any) => e.entry_id),
    [mine.entry_id],
  );
});

test("walkin_mode and called_hold_minutes are the store's, null when unset", async () => {
  const w = await queueWorld(t, { walkin_mode: null, called_hold_minutes: null });
  const body = await list(w);
  assert.equal(body.walkin_mode, null);
  assert.equal(body.called_hold_minutes, null);
  assert.deepEqual(body.entries, []);
});
