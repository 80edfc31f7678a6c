// Kept availability answers (src/bookings/availability/availability.cache.ts): a search served from
// a kept answer must equal one computed afresh, after every kind of change that can move a slot,
// whatever wrote it (the API or plain SQL), after the clock moves, and across processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { searchAvailability } from '../../../src/bookings/availability/availability.service.ts';
import { availabilityCache, MAX_GENERATION_MS } from '../../../src/bookings/availability/availability.cache.ts';
import { pruneAvailabilityChanges } from '../../../src/bookings/availability/availability-changes.repository.ts';
import type { ShopperContext } from '../../../src/platform/context.ts';
import { ALL_WEEK, anotherCustomer, hold, search, setService, setStore, shop, startsOf, type Shop } from './helpers.ts';

// Monday 2026-06-01 09:00 BST.
const t = await startTestApp({ now: '2026-06-01T08:00:00Z' });
const DAYS = { from_date: '2026-06-01', to_date: '2026-06-03' };

/** The same search computed afresh, bypassing kept answers: a customer's, or with as: 'merchant' the store's own. */
async function fresh(
  w: Shop,
  customerId: string | 'merchant' = w.customerId,
  query: Record<string, unknown> = DAYS,
): Promise<unknown> {
  const actor: ShopperContext['actor'] =
    customerId === 'merchant'
      ? {
          kind: 'merchant',
          storeId: w.storeId,
          userId: 'owner',
          staffName: 'Owner',
          scopes: ['merchant:read'],
          entitlements: ['can_use_bookings'],
          permissions: [],
        }
      : { kind: 'customer', customerId, scopes: ['customer:read', 'customer:write'] };
  const ctx: ShopperContext = {
    actor,
    db: t.db,
    clock: t.clock,
    requestId: 'test',
    log: pino({ level: 'silent' }),
    idempotency: null,
    replayed: false,
  };
  return JSON.parse(
    String(
      await searchAvailability(ctx, { store_id: w.storeId, service_id: w.serviceId, ...query } as any, {
        cache: false,
      }),
    ),
  );
}

/** Searches twice (the second from what the first kept) and checks both against a fresh computation. */
async function same(w: Shop, what: string, token = w.customer, customerId = w.customerId): Promise<string[]> {
  const first = await search(w, DAYS, token);
  const second = await search(w, DAYS, token);
  const expected = await fresh(w, customerId);
  assert.deepEqual(first.body, expected, `${what}: first search`);
  assert.deepEqual(second.body, expected, `${what}: kept answer`);
  return startsOf(second);
}

test('a kept answer is served again: a change the database is not told about stays unseen', async () => {
  const w = await shop({ t, week: ALL_WEEK([{ open: '10:00', close: '12:00' }]) });
  const before = await same(w, 'first');
  assert.ok(before.includes('2026-06-02T09:00:00.000Z'));
  const kept = availabilityCache(t.db)?.stats().answers ?? 0;
  assert.ok(kept >= 1);
  // Time-off written with the change trigger switched off: the kept answer still shows 10:00...
  await t.db.query('ALTER TABLE time_off DISABLE TRIGGER time_off_availability');
  try {
    await t.db.query(
      `INSERT INTO time_off (store_id, unit_id, kind, starts_at, ends_at) VALUES ($1, $2, 'time_off', '2026-06-02T09:00:00Z', '2026-06-02T10:00:00Z')`,
      [w.storeId, w.units[0]],
    );
  } finally {
    await t.db.query('ALTER TABLE time_off ENABLE TRIGGER time_off_availability');
  }
  assert.deepEqual(startsOf(await search(w, DAYS)), before);
  // ...which proves it was kept; a fresh computation does not.
  const now = (await fresh(w)) as any;
  assert.ok(!now.days.flatMap((d: any) => d.slots.map((s: any) => s.starts_at)).includes('2026-06-02T09:00:00.000Z'));
  // A generation lives at most MAX_GENERATION_MS: after it, the search computes again.
  t.clock.advance(MAX_GENERATION_MS);
  assert.deepEqual((await search(w, DAYS)).body, await fresh(w));
  t.clock.set('2026-06-01T08:00:00Z');
});

test('a change makes stale only the days around it: a day it did not touch stays kept', async () => {
  // Open across midnight (20:00 to 02:00), a 150-minute service: a day's slots read the next day's hours.
  const w = await shop({
    t,
    week: ALL_WEEK([
      { open: '00:00', close: '02:00' },
      { open: '20:00', close: '24:00' },
    ]),
  });
  await setService(t, w.serviceId, { duration_min: 150 });
  const query = { from_date: '2026-06-01', to_date: '2026-06-11' };
  const day = (body: any, date: string) => body.days.find((d: any) => d.date === date);
  const first = (await search(w, query)).body;
  assert.deepEqual(first, await fresh(w, w.customerId, query));
  assert.ok(day(first, '2026-06-09').slots.length > 0);
  // Time-off on the 9th that the database is not told about: only a recomputation of the 9th would show it.
  await t.db.query('ALTER TABLE time_off DISABLE TRIGGER time_off_availability');
  try {
    await t.db.query(
      `INSERT INTO time_off (store_id, unit_id, kind, starts_at, ends_at) VALUES ($1, $2, 'time_off', '2026-06-09T18:00:00Z', '2026-06-10T01:00:00Z')`,
      [w.storeId, w.units[0]],
    );
  } finally {
    await t.db.query('ALTER TABLE time_off ENABLE TRIGGER time_off_availability');
  }
  // Time-off told about, 00:15 to 00:45 on the 5th (BST): the 4th to the 6th go stale, the 4th
  // because its late starts run past midnight into it.
  await t.db.query(
    `INSERT INTO time_off (store_id, unit_id, kind, starts_at, ends_at) VALUES ($1, $2, 'time_off', '2026-06-04T23:15:00Z', '2026-06-04T23:45:00Z')`,
    [w.storeId, w.units[0]],
  );
  const recorded = await t.db.query<{ blocks: string }>(
    'SELECT blocks::text FROM availability_changes WHERE store_id = $1 ORDER BY txid DESC LIMIT 1',
    [w.storeId],
  );
  assert.equal(
    recorded.rows[0].blocks,
    '{["2026-06-04 23:15:00+00","2026-06-04 23:45:00+00")}',
    'the change records the time it occupied',
  );
  const now = (await fresh(w, w.customerId, query)) as any;
  const second = (await search(w, query)).body;
  for (const date of ['2026-06-04', '2026-06-05', '2026-06-06'])
    assert.deepEqual(day(second, date), day(now, date), `${date} is computed again`);
  assert.notDeepEqual(
    day(now, '2026-06-04'),
    day(first, '2026-06-04'),
    'the told change moved the 4th (its starts after 21:45 run into it)',
  );
  assert.deepEqual(day(second, '2026-06-09'), day(first, '2026-06-09'), 'the 9th is still the kept day');
  assert.notDeepEqual(day(now, '2026-06-09'), day(first, '2026-06-09'));
  // A change to the set-up (the store's slot step) makes every day stale, and is recorded as such.
  await setStore(t, w.storeId, { slot_step_min: 15 });
  const setUp = await t.db.query<{ blocks: string | null }>(
    'SELECT blocks FROM availability_changes WHERE store_id = $1 ORDER BY txid DESC LIMIT 1',
    [w.storeId],
  );
  assert.equal(setUp.rows[0].blocks, null);
  assert.deepEqual((await search(w, query)).body, await fresh(w, w.customerId, query));
});

test('every change that can move a slot, by the API or by plain SQL, is seen by the next search', async () => {
  const w = await shop({ t, units: 2, week: ALL_WEEK([{ open: '10:00', close: '13:00' }]) });
  const slot = '2026-06-02T09:00:00.000Z'; // 10:00 BST on Tuesday
  const unitsAt = async (at: string) => {
    const res = await search(w, DAYS);
    return res.body.days.flatMap((d: any) => d.slots).find((s: any) => s.starts_at === at)?.unit_ids ?? [];
  };
  await same(w, 'start');
  assert.deepEqual(await unitsAt(slot), w.units);

  // An appointment through the API, then cancelled in SQL.
  const booked = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token: w.merchant,
    body: {
      store_id: w.storeId,
      unit_id: w.units[0],
      starts_at: slot,
      ends_at: '2026-06-02T10:00:00Z',
      guest_email: 'g@example.com',
    },
  });
  assert.equal(booked.status, 200, JSON.stringify(booked.body));
  await same(w, 'booked');
  assert.deepEqual(await unitsAt(slot), [w.units[1]]);
  await t.db.query(`UPDATE appointments SET status = 'cancelled' WHERE id = $1`, [booked.body.appointment.id]);
  await same(w, 'cancelled in SQL');
  assert.deepEqual(await unitsAt(slot), w.units);

  // Time-off inserted and deleted in SQL.
  await t.db.query(
    `INSERT INTO time_off (store_id, unit_id, kind, starts_at, ends_at) VALUES ($1, $2, 'time_off', '2026-06-02T08:00:00Z', '2026-06-02T12:00:00Z')`,
    [w.storeId, w.units[1]],
  );
  await same(w, 'time-off');
  assert.deepEqual(await unitsAt(slot), [w.units[0]]);
  await t.db.query('DELETE FROM time_off WHERE store_id = $1', [w.storeId]);
  await same(w, 'time-off deleted');

  // A hold through the API, released through the API.
  const held = await hold(w, { starts_at: slot, unit_id: w.units[0] });
  assert.equal(held.status, 200, JSON.stringify(held.body));
  await same(w, 'held');
  assert.deepEqual(await unitsAt(slot), [w.units[1]]);
  assert.equal(
    (await call(t.app, 'DELETE', `/api/v1/bookings/holds/${held.body.hold.id}`, { token: w.customer })).status,
    200,
  );
  await same(w, 'released');
  assert.deepEqual(await unitsAt(slot), w.units);

  // Working hours through the API: Tuesday closed for the first unit.
  const hours = await call(t.app, 'PUT', `/api/v1/bookings/units/${w.units[0]}/hours`, {
    token: w.merchant,
    body: { week: ALL_WEEK([{ open: '10:00', close: '13:00' }]), exceptions: [{ date: '2026-06-02', intervals: [] }] },
  });
  assert.equal(hours.status, 200);
  await same(w, 'exception');
  assert.deepEqual(await unitsAt(slot), [w.units[1]]);

  // The unit, the service and the store's settings, in SQL.
  await t.db.query('UPDATE units SET online_bookable = false WHERE id = $1', [w.units[1]]);
  await same(w, 'unit offline');
  assert.deepEqual(await unitsAt(slot), []);
  await t.db.query('UPDATE units SET online_bookable = true WHERE id = $1', [w.units[1]]);
  await setService(t, w.serviceId, { duration_min: 150 });
  const long = await same(w, 'longer service');
  assert.ok(!long.includes('2026-06-02T09:45:00.000Z'), '10:45 + 150 min overruns 13:00');
  await setStore(t, w.storeId, { slot_step_min: 60 });
  const hourly = await same(w, 'hourly steps');
  assert.ok(hourly.every((s) => s.slice(14, 16) === '00'));
});

test("kept answers are sent as JSON, and the merchant's view and the customer's are kept apart", async () => {
  const w = await shop({ t, units: 2, week: ALL_WEEK([{ open: '10:00', close: '12:00' }]) });
  await t.db.query('UPDATE units SET online_bookable = false WHERE id = $1', [w.units[1]]);
  for (let round = 0; round < 2; round++) {
    const customer = await search(w, DAYS);
    const merchant = await search(w, DAYS, w.merchant);
    assert.match(String(customer.headers['content-type']), /^application\/json; charset=utf-8$/);
    assert.deepEqual(customer.body, await fresh(w));
    assert.deepEqual(merchant.body, await fresh(w, 'merchant'));
    assert.deepEqual(
      (customer.body as any).days[1].slots[0].unit_ids,
      [w.units[0]],
      'the customer is not offered the unit that is not bookable online',
    );
    assert.deepEqual((merchant.body as any).days[1].slots[0].unit_ids, w.units, 'the merchant is');
  }
});

test('a hold the answer counted stops blocking when it expires, with no write', async () => {
  const w = await shop({ t, week: ALL_WEEK([{ open: '10:00', close: '12:00' }]), settings: { hold_minutes: 10 } });
  const slot = '2026-06-02T09:00:00.000Z';
  const other = await anotherCustomer(w);
  assert.equal((await hold(w, { starts_at: slot }, other.token)).status, 200);
  assert.ok(!(await same(w, 'held')).includes(slot));
  t.clock.advance(10 * 60_000);
  assert.ok((await same(w, 'expired')).includes(slot));
  t.clock.set('2026-06-01T08:00:00Z');
});

test('the notice and the horizon move with the clock over a kept answer', async () => {
  const w = await shop({
    t,
    week: ALL_WEEK([{ open: '09:00', close: '17:00' }]),
    settings: { min_notice_min: 120, booking_horizon_days: 1 },
  });
  // At 08:00Z: the notice runs to 10:00Z (11:00 BST); the horizon to 08:00Z tomorrow, when Tuesday opens.
  let starts = await same(w, 'at 08:00Z');
  assert.equal(starts[0], '2026-06-01T10:00:00.000Z');
  assert.equal(starts.at(-1), '2026-06-01T15:00:00.000Z', 'nothing on Tuesday yet');
  t.clock.advance(60 * 60_000);
  starts = await same(w, 'an hour later');
  assert.equal(starts[0], '2026-06-01T11:00:00.000Z', 'a later notice cuts more of today');
  assert.equal(starts.at(-1), '2026-06-02T08:45:00.000Z', 'a later horizon lets more of tomorrow in');
  t.clock.set('2026-06-01T08:00:00Z');
});

test('a blocked customer is offered nothing, while others are served the kept answer', async () => {
  const w = await shop({ t, week: ALL_WEEK([{ open: '10:00', close: '12:00' }]) });
  const other = await anotherCustomer(w);
  await t.db.query(
    `INSERT INTO store_customers (store_id, customer_id, blocked) VALUES ($1, $2, true)
     ON CONFLICT (store_id, customer_id) DO UPDATE SET blocked = true`,
    [w.storeId, other.id],
  );
  assert.ok((await same(w, 'allowed')).length > 0);
  const blocked = await same(w, 'blocked', other.token, other.id);
  assert.deepEqual(blocked, []);
});

test('two app instances (each its own pool and kept answers, as two processes have) keep their own answers, and each sees what the other booked', async () => {
  const w = await shop({ t, week: ALL_WEEK([{ open: '10:00', close: '12:00' }]) });
  const other = await t.sibling();
  const slot = '2026-06-02T09:00:00.000Z';
  assert.ok(startsOf(await search(w, DAYS, w.customer, other)).includes(slot));
  assert.ok(startsOf(await search(w, DAYS)).includes(slot));
  // Booked through this instance; the other instance's kept answer is dropped at its next search.
  assert.equal((await hold(w, { starts_at: slot })).status, 200);
  assert.ok(!startsOf(await search(w, DAYS, w.customer, other)).includes(slot));
});

test('searches racing bookings across two app instances (two pools, two caches): once writes stop, both serve what a fresh search finds', async () => {
  const w = await shop({ t, units: 3, week: ALL_WEEK([{ open: '09:00', close: '17:00' }]) });
  const other = await t.sibling();
  const apps = [t.app, other];
  const starts = Array.from({ length: 24 }, (_, i) =>
    new Date(Date.parse('2026-06-02T08:00:00Z') + i * 15 * 60_000).toISOString(),
  );
  const work: Promise<unknown>[] = [];
  for (let i = 0; i < starts.length; i++) {
    work.push(hold(w, { starts_at: starts[i], unit_id: w.units[i % 3] }, w.customer, apps[i % 2]));
    work.push(search(w, DAYS, w.customer, apps[(i + 1) % 2]));
    work.push(search(w, DAYS, w.customer, apps[i % 2]));
  }
  await Promise.all(work);
  const expected = await fresh(w);
  for (const app of apps) assert.deepEqual((await search(w, DAYS, w.customer, app)).body, expected);
});

test('change records older than a day are pruned; newer ones stay', async () => {
  const w = await shop({ t });
  const rows = async () =>
    Number(
      (
        await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM availability_changes WHERE store_id = $1', [
          w.storeId,
        ])
      ).rows[0].n,
    );
  const recent = await rows();
  assert.ok(recent > 0, 'setting the shop up recorded changes');
  await t.db.query(
    `INSERT INTO availability_changes (store_id, txid, changed_at)
     SELECT $1, ('1' || lpad(g::text, 6, '0'))::text::xid8, now() - interval '25 hours' FROM generate_series(1, 7) g`,
    [w.storeId],
  );
  assert.equal(await rows(), recent + 7);
  const pruned = await pruneAvailabilityChanges(t.db, new Date(), 3);
  assert.ok(pruned >= 7);
  assert.equal(await rows(), recent);
});

test('a check-in or a completion leaves the occupied time as it was: nothing recorded, the occupancy row untouched; a cancel frees it', async () => {
  const w = await shop({ t, week: ALL_WEEK([{ open: '10:00', close: '13:00' }]) });
  const slot = '2026-06-02T09:00:00.000Z'; // 10:00 BST on Tuesday
  const body = {
    store_id: w.storeId,
    unit_id: w.units[0],
    starts_at: slot,
    ends_at: '2026-06-02T10:00:00Z',
    guest_email: 'g@example.com',
  };
  const booked = await call(t.app, 'POST', '/api/v1/bookings/appointments', { token: w.merchant, body });
  assert.equal(booked.status, 200, JSON.stringify(booked.body));
  const id = booked.body.appointment.id;
  const changes = async () =>
    Number(
      (
        await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM availability_changes WHERE store_id = $1', [
          w.storeId,
        ])
      ).rows[0].n,
    );
  // The row's version: a write to it, even of the same values, makes a new one.
  const occupancy = async () =>
    (
      await t.db.query<{ v: string }>('SELECT xmin::text AS v FROM unit_occupancy WHERE appointment_id = $1', [id])
    ).rows.map((r) => r.v);
  const recorded = await changes();
  const row = await occupancy();
  assert.equal(row.length, 1);
  assert.ok(!(await same(w, 'booked')).includes(slot));
  for (const step of ['check-in', 'complete']) {
    const res = await call(t.app, 'POST', `/api/v1/bookings/appointments/${step}`, {
      token: w.merchant,
      body: { store_id: w.storeId, appointment_id: id },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(await changes(), recorded, `${step}: no availability change recorded`);
    assert.deepEqual(await occupancy(), row, `${step}: the occupancy row is not written`);
    assert.ok(!(await same(w, step)).includes(slot), `${step}: the slot is still taken`);
  }
  // Cancelled (in SQL: a completed appointment has no cancel in the API), the time is free again.
  await t.db.query(`UPDATE appointments SET status = 'cancelled' WHERE id = $1`, [id]);
  assert.equal(await changes(), recorded + 1, 'the cancel is recorded');
  assert.deepEqual(await occupancy(), [], 'and its occupancy row is gone');
  assert.ok((await same(w, 'cancelled')).includes(slot));
});
