// An occurrence occupies its instructor's unit: appointments, time-off and other classes are kept out
// of its time and it out of theirs, from every door; a weekly schedule keeps its local time across a
// clock change; bad input is refused in the envelope and changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../support/http.ts';
import { api, bookGuest, classWorld, ok, rows, scheduled } from './helpers.ts';

const w = await classWorld({ now: '2026-06-01T09:00:00Z' });

function appointment(startsAt: string, endsAt: string) {
  return call(w.t.app, 'POST', '/api/v1/bookings/appointments', {
    token: w.token,
    body: {
      store_id: w.storeId,
      unit_id: w.unitId,
      starts_at: startsAt,
      ends_at: endsAt,
      guest_name: 'Gail Guest',
      guest_email: 'gail@example.com',
    },
  });
}
function timeOff(startsAt: string, endsAt: string, override = false) {
  return call(w.t.app, 'POST', '/api/v1/bookings/time-off', {
    token: w.token,
    body: { store_id: w.storeId, unit_id: w.unitId, starts_at: startsAt, ends_at: endsAt, kind: 'time_off', override },
  });
}
const count = async (sql: string, params: unknown[] = []) => Number((await rows(w, sql, params))[0].n);

test("an appointment into a class's time on its instructor's unit is refused, and the reverse", async () => {
  const { classId, occurrenceId } = await scheduled(w, {}, '2026-06-02T18:00:00.000Z');
  const into = await appointment('2026-06-02T18:30:00.000Z', '2026-06-02T19:00:00.000Z');
  assert.equal(into.status, 409);
  assert.equal(errorCode(into), 'SLOT_TAKEN');
  assert.equal(await count(`SELECT count(*) AS n FROM appointments WHERE store_id = $1`, [w.storeId]), 0);

  const booked = await appointment('2026-06-03T18:00:00.000Z', '2026-06-03T19:00:00.000Z');
  assert.equal(booked.status, 200);
  const over = await api(w, 'POST', `/${classId}/occurrences`, { starts_at: '2026-06-03T18:30:00.000Z' });
  assert.equal(over.status, 409);
  assert.equal(errorCode(over), 'SLOT_TAKEN');
  assert.equal(await count('SELECT count(*) AS n FROM class_occurrences WHERE class_id = $1', [classId]), 1);

  // Another unit is free; a cancelled occurrence frees its time.
  await ok(api(w, 'POST', `/occurrences/${occurrenceId}/cancel`, {}));
  assert.equal((await appointment('2026-06-02T18:30:00.000Z', '2026-06-02T19:00:00.000Z')).status, 200);
});

test('time-off refuses a class over it, and a class refuses time-off over it (even with override)', async () => {
  const { classId } = await scheduled(w, { name: 'Barre' }, '2026-06-04T18:00:00.000Z');
  const covering = await timeOff('2026-06-04T17:00:00.000Z', '2026-06-04T20:00:00.000Z', true);
  assert.equal(covering.status, 409);
  assert.equal(errorCode(covering), 'CLASS_SCHEDULED');
  assert.equal(await count('SELECT count(*) AS n FROM time_off WHERE store_id = $1', [w.storeId]), 0);

  assert.equal((await timeOff('2026-06-05T12:00:00.000Z', '2026-06-05T14:00:00.000Z')).status, 200);
  const intoTimeOff = await api(w, 'POST', `/${classId}/occurrences`, { starts_at: '2026-06-05T13:00:00.000Z' });
  assert.equal(intoTimeOff.status, 409);
  assert.equal(errorCode(intoTimeOff), 'UNIT_UNAVAILABLE');
  // Two classes on one instructor cannot overlap either.
  const { class: other } = await ok(
    api(w, 'POST', '', { name: 'Other', duration_min: 30, capacity: 5, instructor_unit_id: w.unitId }),
  );
  const clash = await api(w, 'POST', `/${other.id}/occurrences`, { starts_at: '2026-06-04T18:15:00.000Z' });
  assert.equal(errorCode(clash), 'SLOT_TAKEN');
});

test('a weekly schedule keeps the store-local time across the clock change, all or nothing', async () => {
  const { class: c } = await ok(
    api(w, 'POST', '', { name: 'Evening flow', duration_min: 60, capacity: 8, instructor_unit_id: w.unitId }),
  );
  // London leaves summer time on 25 October 2026: 18:00 is 17:00Z before and 18:00Z after.
  const { occurrences } = await ok(
    api(w, 'POST', `/${c.id}/schedule`, { starts_at: '2026-10-15T17:00:00.000Z', weeks: 3 }),
  );
  assert.deepEqual(
    occurrences.map((o: any) => o.starts_at),
    ['2026-10-15T17:00:00.000Z', '2026-10-22T17:00:00.000Z', '2026-10-29T18:00:00.000Z'],
  );
  const timetable = await ok(
    api(w, 'GET', '/occurrences', undefined, { query: { from: '2026-10-29', to: '2026-10-29' } }),
  );
  assert.deepEqual(
    timetable.occurrences.map((o: any) => [o.id, o.seats_left]),
    [[occurrences[2].id, 8]],
  );

  // A run meeting an appointment in its third week creates none of its weeks.
  assert.equal((await appointment('2026-11-19T18:00:00.000Z', '2026-11-19T18:30:00.000Z')).status, 200);
  const blocked = await api(w, 'POST', `/${c.id}/schedule`, { starts_at: '2026-11-05T18:00:00.000Z', weeks: 3 });
  assert.equal(errorCode(blocked), 'SLOT_TAKEN');
  assert.equal(await count('SELECT count(*) AS n FROM class_occurrences WHERE class_id = $1', [c.id]), 3);
});

test('bad input: a past start, a cancelled or full-past-cutoff occurrence, a capacity below the seats taken, a guest without email', async () => {
  const { class: c } = await ok(
    api(w, 'POST', '', { name: 'HIIT', duration_min: 30, capacity: 2, promotion_cutoff_minutes: 120 }),
  );
  const past = await api(w, 'POST', `/${c.id}/occurrences`, { starts_at: '2026-06-01T08:00:00.000Z' });
  assert.deepEqual([past.status, errorCode(past)], [400, 'OCCURRENCE_IN_PAST']);

  // Starts in an hour, inside its two-hour cutoff: a full class takes no waitlist.
  const soon = (await ok(api(w, 'POST', `/${c.id}/occurrences`, { starts_at: '2026-06-01T10:00:00.000Z' }))).occurrence;
  await ok(bookGuest(w, soon.id, 1));
  await ok(bookGuest(w, soon.id, 2));
  const full = await bookGuest(w, soon.id, 3);
  assert.deepEqual([full.status, errorCode(full)], [409, 'CLASS_FULL']);
  assert.equal(await count('SELECT count(*) AS n FROM class_bookings WHERE occurrence_id = $1', [soon.id]), 2);

  // The class's capacity below the two seats taken in an occurrence without its own: refused, unchanged.
  const low = await api(w, 'PATCH', `/${c.id}`, { capacity: 1, name: 'Renamed' });
  assert.deepEqual([low.status, errorCode(low)], [409, 'CAPACITY_BELOW_BOOKED']);
  assert.deepEqual((await ok(api(w, 'GET', `/${c.id}`))).class.capacity, 2);
  assert.equal((await ok(api(w, 'GET', `/${c.id}`))).class.name, 'HIIT');

  const later = (await ok(api(w, 'POST', `/${c.id}/occurrences`, { starts_at: '2026-06-08T10:00:00.000Z' })))
    .occurrence;
  await ok(api(w, 'POST', `/occurrences/${later.id}/cancel`, {}));
  const cancelled = await bookGuest(w, later.id, 4);
  assert.deepEqual([cancelled.status, errorCode(cancelled)], [409, 'OCCURRENCE_CANCELLED']);

  const noEmail = await api(w, 'POST', `/occurrences/${soon.id}/bookings`, { guest_name: 'No Email' });
  assert.deepEqual([noEmail.status, errorCode(noEmail)], [400, 'GUEST_CONTACT_REQUIRED']);
  const unknown = await api(w, 'GET', '/bookings/00000000-0000-4000-8000-000000000000');
  assert.deepEqual([unknown.status, errorCode(unknown)], [404, 'NOT_FOUND']);
  const backwards = await api(w, 'GET', '/occurrences', undefined, { query: { from: '2026-06-08', to: '2026-06-01' } });
  assert.deepEqual([backwards.status, errorCode(backwards)], [400, 'INVALID_TIME_RANGE']);
});

test('cancelling an occurrence cancels every booking, waitlist place and offer, each told', async () => {
  const { occurrenceId } = await scheduled(w, { name: 'Boxing', capacity: 1 }, '2026-06-06T09:00:00.000Z');
  const a = (await ok(bookGuest(w, occurrenceId, 21))).booking;
  const b = (await ok(bookGuest(w, occurrenceId, 22))).booking;
  const res = await ok(api(w, 'POST', `/occurrences/${occurrenceId}/cancel`, {}));
  assert.equal(res.occurrence.cancelled, true);
  for (const id of [a.id, b.id]) assert.equal((await ok(api(w, 'GET', `/bookings/${id}`))).booking.status, 'cancelled');
  const told = await rows(
    w,
    `SELECT data->>'id' AS id FROM events WHERE type = 'class.booking.cancelled' AND data->>'reason' = 'occurrence_cancelled' AND data->>'occurrence_id' = $1`,
    [occurrenceId],
  );
  assert.deepEqual(told.map((e) => e.id).sort(), [a.id, b.id].sort());
  const again = await ok(api(w, 'POST', `/occurrences/${occurrenceId}/cancel`, {}));
  assert.equal(again.occurrence.cancelled_at, res.occurrence.cancelled_at);
});
