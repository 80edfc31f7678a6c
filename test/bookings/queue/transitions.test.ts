// The "Queue entry status" table, row by row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { NOW, appointment, at, entryRow, hold, join, list, post, queueWorld, timeOff } from './queue-fixtures.ts';

const t = await startTestApp({ now: NOW });

const auditRows = async (db: any, entryId: string) =>
  (
    await db.query('SELECT action, actor_id, details FROM audit_log WHERE entity = $1 AND entity_id = $2 ORDER BY id', [
      'queue_entry',
      entryId,
    ])
  ).rows;

const appointmentById = async (db: any, id: string) =>
  (
    await db.query(
      `SELECT unit_id, service_id, customer_id, guest_name, guest_email, guest_phone, starts_at, ends_at, status, source, price_pence,
              deposit_pence, payment_status, currency, party_size, is_override, checked_in_at
         FROM appointments WHERE id = $1`,
      [id],
    )
  ).rows[0];

test("waiting -> called: called_at set, the hold countdown is the store's called_hold_minutes; audited", async () => {
  const w = await queueWorld(t, { called_hold_minutes: 25 });
  const e = await join(w);
  w.t.clock.advance(5 * 60_000);
  const res = await post(w, 'call', { entry_id: e.entry_id });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { entry_id: e.entry_id, called: true, hold_minutes: 25, called_at: at(5) });
  const row = await entryRow(w.t.db, e.entry_id);
  assert.equal(row.status, 'called');
  assert.equal(row.called_at, at(5));
  assert.deepEqual(
    (await auditRows(w.t.db, e.entry_id)).map((r: any) => r.action),
    ['queue.join', 'queue.call'],
  );
});

test('called -> call again: a noop that returns the original called_at', async () => {
  const w = await queueWorld(t);
  const e = await join(w);
  await post(w, 'call', { entry_id: e.entry_id });
  w.t.clock.advance(3 * 60_000);
  const again = await post(w, 'call', { entry_id: e.entry_id });
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, { entry_id: e.entry_id, called: false, hold_minutes: 10, called_at: at(0) });
  assert.equal((await entryRow(w.t.db, e.entry_id)).called_at, at(0));
  assert.equal((await auditRows(w.t.db, e.entry_id)).filter((r: any) => r.action === 'queue.call').length, 1);
});

test('a store without called_hold_minutes holds a called entry for 10 minutes', async () => {
  const w = await queueWorld(t, { called_hold_minutes: null });
  const e = await join(w);
  const res = await post(w, 'call', { entry_id: e.entry_id });
  assert.equal(res.body.hold_minutes, 10);
});

test('calling an entry that is not waiting (left, no_show, assigned) is refused with ENTRY_NOT_WAITING', async () => {
  const w = await queueWorld(t);
  const left = await join(w);
  await post(w, 'remove', { entry_id: left.entry_id, status: 'left' });
  const noShow = await join(w);
  await post(w, 'remove', { entry_id: noShow.entry_id, status: 'no_show' });
  const seated = await join(w);
  await post(w, 'assign', { entry_id: seated.entry_id, unit_id: w.unitA });
  for (const [e, status] of [
    [left, 'left'],
    [noShow, 'no_show'],
    [seated, 'assigned'],
  ] as const) {
    const res = await post(w, 'call', { entry_id: e.entry_id });
    assert.equal(res.status, 409);
    assert.equal(errorCode(res), 'ENTRY_NOT_WAITING');
    assert.equal((await entryRow(w.t.db, e.entry_id)).status, status);
  }
});

test('waiting -> assigned: a real walk_in appointment starting now, for the service duration and price; no money moves', async () => {
  const w = await queueWorld(t);
  const customer = await w.t.fx.customer({ name: 'Cara' });
  await w.t.fx.membership(w.storeId, customer.id);
  const e = await join(w, {
    customer_id: customer.id,
    guest_name: 'Cara',
    guest_phone: '07700900123',
    service_id: w.serviceId,
    party_size: 2,
  });
  w.t.clock.advance(7 * 60_000);
  const res = await post(w, 'assign', { entry_id: e.entry_id, unit_id: w.unitB });
  assert.equal(res.status, 200);
  assert.equal(res.body.entry_id, e.entry_id);
  assert.equal(res.body.assigned, true);
  const appt = await appointmentById(w.t.db, res.body.appointment_id);
  assert.deepEqual(appt, {
    unit_id: w.unitB,
    service_id: w.serviceId,
    customer_id: customer.id,
    guest_name: 'Cara',
    guest_email: null,
    guest_phone: '07700900123',
    starts_at: at(7),
    ends_at: at(52),
    status: 'checked_in',
    source: 'walk_in',
    price_pence: 3000,
    deposit_pence: 0,
    payment_status: 'none',
    currency: 'GBP',
    party_size: 2,
    is_override: false,
    checked_in_at: at(7),
  });
  const row = await entryRow(w.t.db, e.entry_id);
  assert.equal(row.status, 'assigned');
  assert.equal(row.appointment_id, res.body.appointment_id);
  assert.deepEqual((await list(w)).entries, []);
  const audits = await auditRows(w.t.db, e.entry_id);
  assert.equal(audits.at(-1).action, 'queue.assign');
  assert.equal(audits.at(-1).details.appointment_id, res.body.appointment_id);
  const settled = await w.t.db.query('SELECT count(*)::int AS n FROM settlements WHERE store_id = $1', [w.storeId]);
  assert.equal(settled.rows[0].n, 0);
});

test('called -> assigned works too; without a service the seat is 30 minutes at price 0, and duration_min overrides', async () => {
  const w = await queueWorld(t);
  const plain = await join(w, { guest_name: 'Plain' });
  await post(w, 'call', { entry_id: plain.entry_id });
  const a = await post(w, 'assign', { entry_id: plain.entry_id, unit_id: w.unitA });
  assert.equal(a.status, 200);
  const apptA = await appointmentById(w.t.db, a.body.appointment_id);
  assert.deepEqual(
    [apptA.starts_at, apptA.ends_at, apptA.price_pence, apptA.guest_name, apptA.customer_id],
    [at(0), at(30), 0, 'Plain', null],
  );

  const long = await join(w, { guest_name: 'Long', service_id: w.serviceId });
  const b = await post(w, 'assign', { entry_id: long.entry_id, unit_id: w.unitB, duration_min: 90 });
  assert.equal(b.status, 200);
  assert.equal((await appointmentById(w.t.db, b.body.appointment_id)).ends_at, at(90));
});

test('a per-person service is priced for the party', async () => {
  const w = await queueWorld(t);
  await w.t.db.query(`UPDATE services SET price_type = 'per_person', price_pence = 1500 WHERE id = $1`, [w.serviceId]);
  const e = await join(w, { service_id: w.serviceId, party_size: 3 });
  const res = await post(w, 'assign', { entry_id: e.entry_id, unit_id: w.unitA });
  assert.equal((await appointmentById(w.t.db, res.body.appointment_id)).price_pence, 4500);
});

test('assigned -> assign again: the same appointment, assigned=false, nothing booked twice', async () => {
  const w = await queueWorld(t);
  const e = await join(w);
  const first = await post(w, 'assign', { entry_id: e.entry_id, unit_id: w.unitA });
  const again = await post(w, 'assign', { entry_id: e.entry_id, unit_id: w.unitB });
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, { entry_id: e.entry_id, appointment_id: first.body.appointment_id, assigned: false });
  const n = await w.t.db.query(`SELECT count(*)::int AS n FROM appointments WHERE store_id = $1`, [w.storeId]);
  assert.equal(n.rows[0].n, 1);
});

test('an occupied unit (appointment or time-off) answers STALE_SLOT and the entry keeps its place', async () => {
  const w = await queueWorld(t);
  await appointment(w.t.db, w.storeId, w.unitA, at(10), at(40));
  await timeOff(w.t.db, w.storeId, w.unitB, at(-30), at(30));
  const first = await join(w, { guest_name: 'First' });
  const second = await join(w, { guest_name: 'Second' });
  const before = (await list(w)).entries;
  for (const unit of [w.unitA, w.unitB]) {
    const res = await post(w, 'assign', { entry_id: first.entry_id, unit_id: unit });
    assert.equal(res.status, 409);
    assert.equal(errorCode(res), 'STALE_SLOT');
  }
  const row = await entryRow(w.t.db, first.entry_id);
  assert.deepEqual([row.status, row.appointment_id], ['waiting', null]);
  const after = (await list(w)).entries;
  assert.deepEqual(
    after.map((e: any) => [e.entry_id, e.queue_position]),
    [
      [first.entry_id, 1],
      [second.entry_id, 2],
    ],
  );
  assert.deepEqual(after, before);
  const n = await w.t.db.query(
    `SELECT count(*)::int AS n FROM appointments WHERE store_id = $1 AND source = 'walk_in'`,
    [w.storeId],
  );
  assert.equal(n.rows[0].n, 0);
});

test('override squeezes a walk-in into an occupied unit, marked is_override', async () => {
  const w = await queueWorld(t);
  await appointment(w.t.db, w.storeId, w.unitA, at(-10), at(40));
  const e = await join(w);
  const res = await post(w, 'assign', { entry_id: e.entry_id, unit_id: w.unitA, override: true });
  assert.equal(res.status, 200);
  assert.equal((await appointmentById(w.t.db, res.body.appointment_id)).is_override, true);
});

test('assign needs a unit of this store that can be booked', async () => {
  const w = await queueWorld(t);
  const other = await queueWorld(w.t);
  const e = await join(w);
  const foreign = await post(w, 'assign', { entry_id: e.entry_id, unit_id: other.unitA });
  assert.equal(foreign.status, 404);
  assert.equal(errorCode(foreign), 'NOT_FOUND');
  const off = await w.t.fx.unit(w.storeId, { display_name: 'Off', is_active: false });
  const inactive = await post(w, 'assign', { entry_id: e.entry_id, unit_id: off.id });
  assert.equal(inactive.status, 409);
  assert.equal(errorCode(inactive), 'UNIT_NOT_BOOKABLE');
  assert.equal((await entryRow(w.t.db, e.entry_id)).status, 'waiting');
});

test('an ended entry cannot be seated', async () => {
  const w = await queueWorld(t);
  const e = await join(w);
  await post(w, 'remove', { entry_id: e.entry_id, status: 'left' });
  const res = await post(w, 'assign', { entry_id: e.entry_id, unit_id: w.unitA });
  assert.equal(res.status, 409);
  assert.equal(errorCode(res), 'INVALID_TRANSITION');
});

test('active -> left and active -> no_show are kept distinct; ended_at set; audited', async () => {
  const w = await queueWorld(t);
  const waiting = await join(w);
  const called = await join(w);
  await post(w, 'call', { entry_id: called.entry_id });
  w.t.clock.advance(12 * 60_000);
  const left = await post(w, 'remove', { entry_id: waiting.entry_id, status: 'left' });
  const noShow = await post(w, 'remove', { entry_id: called.entry_id, status: 'no_show' });
  assert.deepEqual(left.body, { entry_id: waiting.entry_id, status: 'left', noop: false });
  assert.deepEqual(noShow.body, { entry_id: called.entry_id, status: 'no_show', noop: false });
  assert.deepEqual(
    [(await entryRow(w.t.db, waiting.entry_id)).status, (await entryRow(w.t.db, waiting.entry_id)).ended_at],
    ['left', at(12)],
  );
  assert.equal((await entryRow(w.t.db, called.entry_id)).status, 'no_show');
  assert.equal((await auditRows(w.t.db, called.entry_id)).at(-1).details.status, 'no_show');
});

test('left or no_show -> remove again: unchanged, noop=true, the status held is reported', async () => {
  const w = await queueWorld(t);
  const e = await join(w);
  await post(w, 'remove', { entry_id: e.entry_id, status: 'no_show' });
  const again = await post(w, 'remove', { entry_id: e.entry_id, status: 'left' });
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, { entry_id: e.entry_id, status: 'no_show', noop: true });
  assert.equal((await entryRow(w.t.db, e.entry_id)).status, 'no_show');
});

test('a seated (assigned) entry cannot be removed from the queue', async () => {
  const w = await queueWorld(t);
  const e = await join(w);
  await post(w, 'assign', { entry_id: e.entry_id, unit_id: w.unitA });
  const res = await post(w, 'remove', { entry_id: e.entry_id, status: 'left' });
  assert.equal(res.status, 409);
  assert.equal(errorCode(res), 'INVALID_TRANSITION');
  assert.equal((await entryRow(w.t.db, e.entry_id)).status, 'assigned');
});

test('a unit held mid-checkout answers STALE_SLOT too', async () => {
  const w = await queueWorld(t);
  await hold(w.t.db, w.storeId, w.unitA, at(5), at(35), at(15));
  const e = await join(w);
  const res = await post(w, 'assign', { entry_id: e.entry_id, unit_id: w.unitA });
  assert.equal(res.status, 409);
  assert.equal(errorCode(res), 'STALE_SLOT');
  assert.equal((await entryRow(w.t.db, e.entry_id)).status, 'waiting');
});

test('an assign retried with the same Idempotency-Key replays the first answer', async () => {
  const w = await queueWorld(t);
  const e = await join(w);
  const send = () =>
    call(w.t.app, 'POST', '/api/v1/bookings/queue/assign', {
      token: w.token,
      idempotencyKey: `seat-${e.entry_id}`,
      body: { store_id: w.storeId, entry_id: e.entry_id, unit_id: w.unitA },
    });
  const first = await send();
  const again = await send();
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, first.body);
  assert.equal(again.body.assigned, true);
  assert.equal(again.headers['idempotent-replayed'], 'true');
});
