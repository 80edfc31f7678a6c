// Classes: the timetable, bookings with capacity and the waitlist, check-in, no-show, acceptance,
// and bad input answered in the envelope with nothing changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../support/http.ts';
import { ADMIN_TOKEN } from '../support/app.ts';
import { api, bookGuest, classWorld, ok, rows, scheduled } from './helpers.ts';

const w = await classWorld({ now: '2026-06-01T09:00:00Z' });

test('a class is created, read, changed and archived; every operation needs the classes entitlement', async () => {
  const { class: c } = await ok(
    api(w, 'POST', '', {
      name: ' Yoga ',
      category: 'Mind',
      duration_min: 60,
      capacity: 12,
      waitlist_mode: 'offer',
      offer_minutes: 30,
    }),
  );
  assert.deepEqual(
    {
      name: c.name,
      capacity: c.capacity,
      mode: c.waitlist_mode,
      offer: c.offer_minutes,
      cutoff: c.promotion_cutoff_minutes,
      archived: c.archived,
      unit: c.instructor_unit_id,
    },
    { name: 'Yoga', capacity: 12, mode: 'offer', offer: 30, cutoff: 0, archived: false, unit: null },
  );
  assert.equal((await ok(api(w, 'GET', `/${c.id}`))).class.name, 'Yoga');
  assert.equal((await ok(api(w, 'PATCH', `/${c.id}`, { capacity: 14 }))).class.capacity, 14);
  assert.equal((await ok(api(w, 'PATCH', `/${c.id}`, { archived: true }))).class.archived, true);
  assert.equal(
    (await ok(api(w, 'GET', ''))).classes.some((x: any) => x.id === c.id),
    false,
  );
  assert.equal(
    (await ok(api(w, 'GET', '', undefined, { query: { include_archived: 'true' } }))).classes.some(
      (x: any) => x.id === c.id,
    ),
    true,
  );
  const archived = await api(w, 'POST', `/${c.id}/occurrences`, { starts_at: '2026-06-03T10:00:00Z' });
  assert.equal(archived.status, 409);
  assert.equal(errorCode(archived), 'CLASS_ARCHIVED');

  const noClasses = await w.t.fx.merchantToken(w.storeId, { entitlements: ['can_use_bookings'] });
  for (const [method, path] of [
    ['GET', ''],
    ['POST', ''],
    ['GET', '/occurrences?from=2026-06-01&to=2026-06-07'],
  ] as const) {
    const res = await api(
      w,
      method,
      path,
      method === 'POST' ? { name: 'X', duration_min: 30, capacity: 3 } : undefined,
      { token: noClasses },
    );
    assert.equal(res.status, 403);
    assert.equal(errorCode(res), 'MISSING_ENTITLEMENT');
  }
  const bad = await api(w, 'POST', '', { name: 'Bad', duration_min: 30, capacity: 3, offer_minutes: 1441 });
  assert.equal(bad.status, 400);
  assert.equal(errorCode(bad), 'VALIDATION_FAILED');
});

test('a class of 2: two confirmed, then waitlisted in order; a cancellation promotes the first in line at once (auto)', async () => {
  const { occurrenceId } = await scheduled(w, { capacity: 2 });
  const results = [];
  for (let i = 0; i < 5; i++) results.push((await ok(bookGuest(w, occurrenceId, i))).booking);
  assert.deepEqual(
    results.map((b) => [b.status, b.waitlist_position]),
    [
      ['confirmed', null],
      ['confirmed', null],
      ['waitlisted', 1],
      ['waitlisted', 2],
      ['waitlisted', 3],
    ],
  );
  assert.equal(results[0].source, 'app');

  const { occurrences } = await ok(
    api(w, 'GET', '/occurrences', undefined, { query: { from: '2026-06-02', to: '2026-06-02' } }),
  );
  const o = occurrences.find((x: any) => x.id === occurrenceId);
  assert.deepEqual(
    { capacity: o.capacity, booked: o.booked, offered: o.offered, waitlisted: o.waitlisted, seats_left: o.seats_left },
    { capacity: 2, booked: 2, offered: 0, waitlisted: 3, seats_left: 0 },
  );

  const cancelled = await ok(api(w, 'POST', `/bookings/${results[0].id}/cancel`, {}));
  assert.equal(cancelled.booking.status, 'cancelled');
  const promoted = (await ok(api(w, 'GET', `/bookings/${results[2].id}`))).booking;
  assert.equal(promoted.status, 'confirmed');
  assert.equal((await ok(api(w, 'GET', `/bookings/${results[3].id}`))).booking.status, 'waitlisted');
  const events = await rows(
    w,
    `SELECT type, data->>'id' AS id FROM events WHERE type LIKE 'class.booking.%' AND data->>'occurrence_id' = $1 ORDER BY seq`,
    [occurrenceId],
  );
  assert.deepEqual(
    events.slice(-2).map((e) => [e.type, e.id]),
    [
      ['class.booking.cancelled', results[0].id],
      ['class.booking.promoted', results[2].id],
    ],
  );
  assert.equal(events.filter((e) => e.type === 'class.booking.waitlisted').length, 3);

  // Capacity below the seats taken: refused, nothing changed; raised: the next in line is promoted.
  const low = await api(w, 'PATCH', `/occurrences/${occurrenceId}`, { capacity: 1 });
  assert.equal(low.status, 409);
  assert.equal(errorCode(low), 'CAPACITY_BELOW_BOOKED');
  const raised = await ok(api(w, 'PATCH', `/occurrences/${occurrenceId}`, { capacity: 3 }));
  assert.deepEqual([raised.occurrence.capacity, raised.occurrence.booked, raised.occurrence.waitlisted], [3, 3, 1]);
  assert.equal((await ok(api(w, 'GET', `/bookings/${results[3].id}`))).booking.status, 'confirmed');
});

test('offer mode: a freed seat is offered, accepted in time it is confirmed; late it is refused and the next is offered', async () => {
  const { occurrenceId } = await scheduled(
    w,
    { capacity: 1, waitlist_mode: 'offer', offer_minutes: 30 },
    '2026-06-03T18:00:00.000Z',
  );
  const [a, b, c] = [
    await ok(bookGuest(w, occurrenceId, 10)),
    await ok(bookGuest(w, occurrenceId, 11)),
    await ok(bookGuest(w, occurrenceId, 12)),
  ].map((r) => r.booking);
  await ok(api(w, 'POST', `/bookings/${a.id}/cancel`, {}));
  const offered = (await ok(api(w, 'GET', `/bookings/${b.id}`))).booking;
  assert.equal(offered.status, 'promotion_pending');
  assert.equal(offered.offer_expires_at, '2026-06-01T09:30:00.000Z');
  // The offer holds the seat: a newcomer waits.
  assert.equal((await ok(bookGuest(w, occurrenceId, 13))).booking.status, 'waitlisted');
  const notOffered = await api(w, 'POST', `/bookings/${c.id}/accept`, {});
  assert.equal(errorCode(notOffered), 'NO_OFFER');

  w.t.clock.set('2026-06-01T09:31:00Z');
  const late = await api(w, 'POST', `/bookings/${b.id}/accept`, {});
  assert.equal(late.status, 409);
  assert.equal(errorCode(late), 'OFFER_EXPIRED');
  assert.equal(
    (await ok(api(w, 'GET', `/bookings/${b.id}`))).booking.status,
    'promotion_pending',
    'a refused acceptance changes nothing',
  );
  const { expireClassOffers } = await import('../../src/classes/offer-sweep.ts');
  assert.equal(await expireClassOffers(w.t.db, w.t.clock.now()), 1);
  assert.equal((await ok(api(w, 'GET', `/bookings/${b.id}`))).booking.status, 'promotion_expired');
  const next = (await ok(api(w, 'GET', `/bookings/${c.id}`))).booking;
  assert.equal(next.status, 'promotion_pending');
  assert.equal(next.offer_expires_at, '2026-06-01T10:01:00.000Z');
  const accepted = await ok(api(w, 'POST', `/bookings/${c.id}/accept`, {}));
  assert.deepEqual([accepted.booking.status, accepted.noop], ['confirmed', false]);
  const types = (await rows(w, `SELECT type FROM events WHERE data->>'id' = $1 ORDER BY seq`, [b.id])).map(
    (e) => e.type,
  );
  assert.deepEqual(types, ['class.booking.waitlisted', 'class.booking.promoted', 'class.booking.offer_expired']);
  w.t.clock.set('2026-06-01T09:00:00Z');
});

test('check-in sets attended_at; a no-show is refused before the start and after a check-in; attendance reads the rows', async () => {
  const customer = await w.t.fx.customer({ name: 'Casey Member' });
  await w.t.fx.membership(w.storeId, customer.id);
  const { occurrenceId } = await scheduled(w, { name: 'Pilates', capacity: 5 }, '2026-06-01T10:00:00.000Z');
  const booking = (
    await ok(api(w, 'POST', `/occurrences/${occurrenceId}/bookings`, { customer_id: customer.id, source: 'drop_in' }))
  ).booking;
  const twice = await api(w, 'POST', `/occurrences/${occurrenceId}/bookings`, {
    customer_id: customer.id,
    source: 'app',
  });
  assert.equal(errorCode(twice), 'ALREADY_BOOKED');
  const early = await api(w, 'POST', `/bookings/${booking.id}/no-show`, {});
  assert.equal(errorCode(early), 'NOT_YET_DUE');
  const checked = await ok(api(w, 'POST', `/bookings/${booking.id}/check-in`, {}));
  assert.deepEqual([checked.booking.status, checked.booking.attended_at], ['attended', '2026-06-01T09:00:00.000Z']);
  w.t.clock.set('2026-06-01T10:05:00Z');
  assert.equal(errorCode(await api(w, 'POST', `/bookings/${booking.id}/no-show`, {})), 'ALREADY_CHECKED_IN');
  w.t.clock.set('2026-06-01T09:00:00Z');

  const res = await call(w.t.app, 'GET', `/api/v1/customers/${customer.id}/attendance`, {
    token: w.token,
    query: { store_id: w.storeId },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const row = res.body.bookings.find((b: any) => b.id === booking.id);
  assert.deepEqual(
    {
      status: row.status,
      source: row.booking_source,
      name: row.class_name,
      instructor: row.instructor_name,
      day: row.scheduled_date,
      start: row.start_time,
      end: row.end_time,
    },
    {
      status: 'attended',
      source: 'drop-in',
      name: 'Pilates',
      instructor: 'Coach Kim',
      day: '2026-06-01',
      start: '11:00:00',
      end: '11:45:00',
    },
  );
  const journey = await call(w.t.app, 'GET', `/api/v1/customers/${customer.id}/journey`, {
    token: w.token,
    query: { store_id: w.storeId },
  });
  assert.equal(journey.status, 200, JSON.stringify(journey.body));
  assert.ok(JSON.stringify(journey.body).includes('class_booking'), 'the journey shows the class booking');
});

test("rows the operator's activity endpoint reports keep working beside the timetable's, offers without an expiry included", async () => {
  const customer = await w.t.fx.customer({ name: 'Reported Member' });
  for (const status of ['promotion_pending', 'promotion_expired', 'waitlisted']) {
    const res = await call(w.t.app, 'POST', `/admin/v1/stores/${w.storeId}/activity`, {
      token: ADMIN_TOKEN,
      body: { kind: 'class_booking', customer_id: customer.id, status, class_name: 'Reported Yoga' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
  const res = await call(w.t.app, 'GET', `/api/v1/customers/${customer.id}/attendance`, {
    token: w.token,
    query: { store_id: w.storeId },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body.bookings.map((b: any) => b.status).sort(), [
    'promotion_expired',
    'promotion_pending',
    'waitlisted',
  ]);
});

test("a class's raised capacity reaches its future occurrences without their own and promotes the first in line", async () => {
  const { classId, occurrenceId } = await scheduled(w, { name: 'Raise', capacity: 1 }, '2026-06-09T18:00:00.000Z');
  const { occurrence: own } = await ok(
    api(w, 'POST', `/${classId}/occurrences`, { starts_at: '2026-06-16T18:00:00.000Z', capacity: 1 }),
  );
  await ok(bookGuest(w, occurrenceId, 31));
  const waiting = (await ok(bookGuest(w, occurrenceId, 32))).booking;
  await ok(bookGuest(w, own.id, 33));
  const ownWaiting = (await ok(bookGuest(w, own.id, 34))).booking;
  assert.equal((await ok(api(w, 'PATCH', `/${classId}`, { capacity: 2 }))).class.capacity, 2);
  assert.equal((await ok(api(w, 'GET', `/bookings/${waiting.id}`))).booking.status, 'confirmed');
  assert.equal(
    (await ok(api(w, 'GET', `/bookings/${ownWaiting.id}`))).booking.status,
    'waitlisted',
    'an occurrence with its own capacity keeps it',
  );
  const promoted = await rows(
    w,
    `SELECT data->>'id' AS id FROM events WHERE type = 'class.booking.promoted' AND data->>'occurrence_id' = $1`,
    [occurrenceId],
  );
  assert.deepEqual(
    promoted.map((e) => e.id),
    [waiting.id],
  );
});

test("a customer's booking is theirs: guest fields sent beside customer_id are ignored, as on an appointment's create", async () => {
  const customer = await w.t.fx.customer({ name: 'Dana Member' });
  await w.t.fx.membership(w.storeId, customer.id);
  const { occurrenceId } = await scheduled(w, { name: 'Spin', capacity: 5 }, '2026-06-03T10:00:00.000Z');
  const booking = (
    await ok(
      api(w, 'POST', `/occurrences/${occurrenceId}/bookings`, {
        customer_id: customer.id,
        guest_name: 'Someone Else',
        guest_email: 'else@example.com',
        source: 'staff',
      }),
    )
  ).booking;
  assert.equal(booking.customer_id, customer.id);
  assert.deepEqual([booking.guest_name, booking.guest_email], [null, null]);
  const stored = await rows(w, 'SELECT customer_id, guest_name, guest_email FROM class_bookings WHERE id = $1', [
    booking.id,
  ]);
  assert.deepEqual(stored, [{ customer_id: customer.id, guest_name: null, guest_email: null }]);
});
