// The live queue (entries, the units that can seat them, their busy intervals, and the store's queue
// settings) is one statement (liveQueueFacts in queue.repository.ts): a list costs 1 round trip, a
// join 6 and a join that reuses its client token 4 (they were 4, 8 and 6 when the live queue was
// three reads, and the list 2 while the store's settings were a read of their own).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { countingDatabase, type CountingDatabase } from '../../support/round-trips.ts';
import { appointment, at, hold, join, list, NOW, queueWorld, timeOff } from './queue-fixtures.ts';

let counting!: CountingDatabase;
const t = await startTestApp({ now: NOW, wrapDb: (db) => (counting = countingDatabase(db)).db });
/** The round trips since the last take and their statements' first words. */
const firstWords = () => {
  const { trips, statements } = counting.take();
  return { trips, statements };
};

test('a queue list is one statement: the store settings with the live queue, its units and busy time', async () => {
  const w = await queueWorld(t);
  // Chair A busy until 09:20 then off 09:50-10:30; chair B held until 09:30.
  await appointment(t.db, w.storeId, w.unitA, at(-30), at(20));
  await timeOff(t.db, w.storeId, w.unitA, at(50), at(90));
  await hold(t.db, w.storeId, w.unitB, at(0), at(30), null);
  const one = await join(w, { guest_name: 'One', service_id: w.serviceId });
  const two = await join(w, { guest_name: 'Two' });

  counting.take();
  const body = await list(w);
  // liveQueueFacts, which carries walkin_mode and called_hold_minutes beside the live queue.
  assert.deepEqual(firstWords(), { trips: 1, statements: ['WITH live_entries AS'] });
  assert.deepEqual([body.store_id, body.walkin_mode, body.called_hold_minutes], [w.storeId, 'mixed', 10]);
  // Every part of the read reached the model: 45 minutes fit B after its hold, 30 fit A's gap.
  assert.deepEqual(
    body.entries.map((e: any) => [e.entry_id, e.queue_position, e.suggested_unit_id, e.expected_start]),
    [
      [one.entry_id, 1, w.unitB, at(30)],
      [two.entry_id, 2, w.unitA, at(20)],
    ],
  );
});

test('a join reads the live queue once: 6 round trips, and 4 when it reuses its client token', async () => {
  const w = await queueWorld(t);
  await join(w, { guest_name: 'Ahead' });

  counting.take();
  await join(w, { guest_name: 'Next', client_token: 'join-once' });
  // joinFacts, liveQueueFacts (the quote), the insert, then the audit row and the event together.
  assert.deepEqual(firstWords(), {
    trips: 6,
    statements: [
      'BEGIN',
      'SELECT st.id AS',
      'WITH live_entries AS',
      'INSERT INTO queue_entries',
      'WITH collected_0 AS',
      'COMMIT',
    ],
  });

  await join(w, { guest_name: 'Next', client_token: 'join-once' });
  // joinFacts finds the entry; liveQueueFacts places it as the list would.
  assert.deepEqual(firstWords(), {
    trips: 4,
    statements: ['BEGIN', 'SELECT st.id AS', 'WITH live_entries AS', 'COMMIT'],
  });
});

test('the live queue reads its instants as a column read does: milliseconds, microseconds cut off', async () => {
  const w = await queueWorld(t);
  const inserted = await t.db.query<{ id: string; joined_at: string; called_at: string }>(
    `INSERT INTO queue_entries (store_id, guest_name, status, joined_at, called_at)
     VALUES ($1, 'Early', 'called', '2026-06-01 08:59:59.123987+00', '2026-06-01 08:59:59.999999+00')
     RETURNING id, joined_at, called_at`,
    [w.storeId],
  );
  const [row] = inserted.rows;
  assert.deepEqual([row.joined_at, row.called_at], ['2026-06-01T08:59:59.123Z', '2026-06-01T08:59:59.999Z']);
  const [entry] = (await list(w)).entries;
  assert.deepEqual([entry.entry_id, entry.joined_at, entry.called_at], [row.id, row.joined_at, row.called_at]);
});

test('a list for a store that does not exist is 404 NOT_FOUND "Store not found", from the same one statement', async () => {
  // A token names its store by id; nothing guarantees the row is still there.
  const storeId = '00000000-0000-4000-8000-0000000000aa';
  const token = await t.fx.merchantToken(storeId);
  counting.take();
  const res = await call(t.app, 'GET', '/api/v1/bookings/queue', { token, query: { store_id: storeId } });
  assert.deepEqual(firstWords(), { trips: 1, statements: ['WITH live_entries AS'] });
  assert.equal(res.status, 404);
  assert.deepEqual(res.body, {
    error: { code: 'NOT_FOUND', message: 'Store not found', requestId: res.body.error.requestId },
  });
});
