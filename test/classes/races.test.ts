// Capacity and the waitlist under concurrency, across two server processes sharing the database (the
// second is a real `node src/server.ts`, as deployed): every seat decision locks the occurrence row,
// so the split, the positions and the promotions hold whoever wins each race. On both engines.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { CallResult } from '../support/http.ts';
import { secondServer } from '../support/second-server.ts';
import { api, BASE, classWorld, ok, rows, type ClassWorld } from './helpers.ts';

// Both processes stand at the same instant (the second keeps the system clock), so an offer one makes
// is not lapsed for the other.
const w: ClassWorld = await classWorld({ now: new Date().toISOString() });
const second = await secondServer(w.t.url!);
after(() => second.kill());
await second.spawn();
// Both processes' pools opened before the races: on a busy host, opening 25 connections at once inside
// the first burst can outlast the connect timeout (a 503 that says nothing about the seat decision).
await Promise.all(
  Array.from({ length: 25 }, async (_, i) => {
    const res =
      i % 2
        ? await fetch(`${second.baseUrl}${BASE}`, { headers: { authorization: `Bearer ${w.token}` } }).then(
            (r) => r.status,
          )
        : (await api(w, 'GET', '')).status;
    if (res !== 200) throw new Error(`warm-up read answered ${res}`);
  }),
);

/** The same call through the second process, over HTTP. */
async function overHttp(method: string, path: string, body: unknown): Promise<CallResult> {
  const res = await fetch(`${second.baseUrl}${BASE}${path}`, {
    method,
    headers: { authorization: `Bearer ${w.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), headers: Object.fromEntries(res.headers) };
}

/** Either process, alternately. The classes are in 2027, ahead of both. */
const either = (i: number, method: string, path: string, body: unknown) =>
  i % 2 ? overHttp(method, path, body) : api(w, method, path, body);

async function fullClass(
  fields: Record<string, unknown>,
  startsAt: string,
): Promise<{ occurrenceId: string; results: CallResult[] }> {
  const { class: c } = await ok(
    api(w, 'POST', '', { name: 'Spin', duration_min: 45, capacity: 10, instructor_unit_id: w.unitId, ...fields }),
  );
  const { occurrence } = await ok(api(w, 'POST', `/${c.id}/occurrences`, { starts_at: startsAt }));
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      either(i, 'POST', `/occurrences/${occurrence.id}/bookings`, {
        guest_name: `Racer ${i}`,
        guest_email: `racer${i}@example.com`,
        source: 'app',
      }),
    ),
  );
  return { occurrenceId: occurrence.id, results };
}

const statusCounts = async (occurrenceId: string) =>
  Object.fromEntries(
    (
      await rows(w, 'SELECT status, count(*)::int AS n FROM class_bookings WHERE occurrence_id = $1 GROUP BY status', [
        occurrenceId,
      ])
    ).map((r) => [r.status, r.n]),
  );

test('50 simultaneous bookings of a class of 10 from two processes: 10 confirmed, 40 waitlisted at positions 1 to 40', async () => {
  const { occurrenceId, results } = await fullClass({}, '2027-06-03T18:00:00.000Z');
  assert.deepEqual(
    results.filter((r) => r.status !== 200).map((r) => JSON.stringify(r.body)),
    [],
  );
  const statuses = results.map((r) => r.body.booking.status);
  assert.equal(statuses.filter((s) => s === 'confirmed').length, 10);
  assert.equal(statuses.filter((s) => s === 'waitlisted').length, 40);
  const positions = results
    .map((r) => r.body.booking.waitlist_position)
    .filter((p) => p !== null)
    .sort((a, b) => a - b);
  assert.deepEqual(
    positions,
    Array.from({ length: 40 }, (_, i) => i + 1),
  );
  assert.deepEqual(await statusCounts(occurrenceId), { confirmed: 10, waitlisted: 40 });
  // Positions follow the order the bookings took the occurrence's lock, so the order they committed:
  // each writes its event under that lock, so the events' sequence numbers follow it too.
  const inFeed = await rows(
    w,
    `SELECT (data->>'waitlist_position')::int AS p FROM events
    WHERE type = 'class.booking.waitlisted' AND data->>'occurrence_id' = $1 ORDER BY seq`,
    [occurrenceId],
  );
  assert.deepEqual(
    inFeed.map((r) => r.p),
    positions,
  );
});

for (const mode of ['auto', 'offer'] as const) {
  test(`3 simultaneous cancellations (${mode}): 3 different people promoted, the first 3 in line, never over capacity`, async () => {
    const { occurrenceId, results } = await fullClass(
      { waitlist_mode: mode, name: `Spin ${mode}` },
      mode === 'auto' ? '2027-06-04T18:00:00.000Z' : '2027-06-05T18:00:00.000Z',
    );
    const confirmed = results.filter((r) => r.body.booking.status === 'confirmed').map((r) => r.body.booking.id);
    const cancels = await Promise.all(
      confirmed.slice(0, 3).map((id, i) => either(i, 'POST', `/bookings/${id}/cancel`, {})),
    );
    assert.deepEqual(
      cancels.map((r) => r.status),
      [200, 200, 200],
    );
    const promoted = await rows(
      w,
      `SELECT id, waitlist_position, status FROM class_bookings WHERE occurrence_id = $1 AND promoted_at IS NOT NULL ORDER BY waitlist_position`,
      [occurrenceId],
    );
    const expected = mode === 'auto' ? 'confirmed' : 'promotion_pending';
    assert.deepEqual(
      promoted.map((p) => [p.waitlist_position, p.status]),
      [
        [1, expected],
        [2, expected],
        [3, expected],
      ],
    );
    const events = await rows(
      w,
      `SELECT data->>'id' AS id FROM events WHERE type = 'class.booking.promoted' AND data->>'occurrence_id' = $1`,
      [occurrenceId],
    );
    assert.deepEqual(events.map((e) => e.id).sort(), promoted.map((p) => p.id).sort(), 'each promoted once');
    const counts = await statusCounts(occurrenceId);
    assert.equal((counts.confirmed ?? 0) + (counts.promotion_pending ?? 0), 10);
    assert.equal(counts.waitlisted, 37);
  });
}

test('simultaneous bookings and cancellations mixed: never more seats taken than the capacity, nobody promoted twice', async () => {
  const { occurrenceId, results } = await fullClass({ name: 'Mixed', capacity: 5 }, '2027-06-06T18:00:00.000Z');
  const ids = results.map((r) => r.body.booking.id);
  const mixed = await Promise.all([
    ...ids.slice(0, 20).map((id, i) => either(i, 'POST', `/bookings/${id}/cancel`, {})),
    ...Array.from({ length: 20 }, (_, i) =>
      either(i + 1, 'POST', `/occurrences/${occurrenceId}/bookings`, {
        guest_name: `Late ${i}`,
        guest_email: `late${i}@example.com`,
      }),
    ),
  ]);
  assert.deepEqual(
    mixed.filter((r) => r.status !== 200).map((r) => JSON.stringify(r.body)),
    [],
  );
  const counts = await statusCounts(occurrenceId);
  assert.equal((counts.confirmed ?? 0) + (counts.promotion_pending ?? 0), 5, JSON.stringify(counts));
  const twice = await rows(
    w,
    `SELECT data->>'id' AS id FROM events WHERE type = 'class.booking.promoted' AND data->>'occurrence_id' = $1
    GROUP BY 1 HAVING count(*) > 1`,
    [occurrenceId],
  );
  assert.deepEqual(twice, []);
  const gaps = await rows(
    w,
    `SELECT count(*)::int AS n, count(DISTINCT waitlist_position)::int AS d, max(waitlist_position) AS m
    FROM class_bookings WHERE occurrence_id = $1 AND waitlist_position IS NOT NULL`,
    [occurrenceId],
  );
  assert.deepEqual([gaps[0].n, gaps[0].d], [gaps[0].m, gaps[0].m]);
});
