// The outbox: a committed change always has its event, written in the same transaction; a refused or
// rolled-back change has none; a no-op repeat (a replayed Idempotency-Key, a reused client token)
// emits nothing. Every event carries UTC and store-local time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call, errorCode } from '../support/http.ts';
import { emit } from '../../src/events/outbox.ts';
import { inTransaction, type RequestContext } from '../../src/platform/context.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const store = await t.fx.store({ timezone: 'Europe/London' });
const unit = await t.fx.unit(store.id);
const token = await t.fx.merchantToken(store.id);

interface EventRow {
  id: string;
  type: string;
  store_id: string;
  occurred_at: string;
  occurred_at_local: string;
  timezone: string;
  data: Record<string, any>;
}
const eventsOf = async (type: string) =>
  (
    await t.db.query<EventRow>(
      'SELECT id, type, store_id, occurred_at, occurred_at_local, timezone, data FROM events WHERE store_id = $1 AND type = $2 ORDER BY txid, seq',
      [store.id, type],
    )
  ).rows;

const book = (body: Record<string, unknown>, idempotencyKey?: string) =>
  call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token,
    idempotencyKey,
    body: { store_id: store.id, unit_id: unit.id, guest_email: 'e@example.com', ...body },
  });

test('a booking writes one appointment.created event with the appointment as booked, in UTC and store-local time', async () => {
  const res = await book({ starts_at: '2026-06-02T10:00:00Z', ends_at: '2026-06-02T11:00:00Z' });
  assert.equal(res.status, 200);
  const [event, ...rest] = await eventsOf('appointment.created');
  assert.equal(rest.length, 0);
  assert.equal(event.store_id, store.id);
  assert.equal(event.occurred_at, '2026-06-01T09:00:00.000Z');
  assert.equal(event.occurred_at_local, '2026-06-01T10:00:00');
  assert.equal(event.timezone, 'Europe/London');
  assert.deepEqual(event.data, {
    ...res.body.appointment,
    local_starts_at: '2026-06-02T11:00:00',
    local_ends_at: '2026-06-02T12:00:00',
  });
});

test('a refused booking writes no event', async () => {
  const before = (await eventsOf('appointment.created')).length;
  const res = await book({ starts_at: '2026-06-02T10:30:00Z', ends_at: '2026-06-02T11:30:00Z' });
  assert.equal(errorCode(res), 'SLOT_TAKEN');
  assert.equal((await eventsOf('appointment.created')).length, before);
});

test('a replayed Idempotency-Key and a reused client token emit nothing more', async () => {
  const before = (await eventsOf('appointment.created')).length;
  const body = { starts_at: '2026-06-03T10:00:00Z', ends_at: '2026-06-03T11:00:00Z', client_token: 'tok-outbox-1' };
  const first = await book(body, 'key-outbox-1');
  const replay = await book(body, 'key-outbox-1');
  const reused = await book(body);
  assert.equal(first.body.reused, false);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(reused.body.reused, true);
  const after = await eventsOf('appointment.created');
  assert.equal(after.length, before + 1);
  assert.equal(after.at(-1)!.data.id, first.body.appointment.id);
});

/** The request context a service hands to inTransaction, with no Idempotency-Key. */
const context = () =>
  ({
    db: t.db,
    clock: t.clock,
    log: t.app.log,
    requestId: 'outbox-test',
    idempotency: null,
    replayed: false,
  }) as unknown as RequestContext;

test('events written in one transaction keep their call order, in one transaction id', async () => {
  const s = await t.fx.store();
  // Called in an order that is neither alphabetical nor by type, so the check cannot pass by chance.
  const calls = [
    ['appointment.rescheduled', 'b'],
    ['appointment.created', 'c'],
    ['queue.joined', 'a'],
    ['appointment.cancelled', 'd'],
  ] as const;
  await inTransaction(context(), async (tx) => {
    for (const [type, n] of calls) await emit(tx, { storeId: s.id, type, data: { n } }, t.clock.now());
  });
  const rows = (
    await t.db.query<{ type: string; n: string; txid: string }>(
      `SELECT type, data->>'n' AS n, txid::text AS txid FROM events WHERE store_id = $1 ORDER BY txid, seq`,
      [s.id],
    )
  ).rows;
  assert.deepEqual(
    rows.map((r) => [r.type, r.n]),
    calls.map(([type, n]) => [type, n]),
  );
  assert.equal(new Set(rows.map((r) => r.txid)).size, 1, 'all written by the one transaction');
});

test('a rolled-back transaction writes none of the events it emitted', async () => {
  const s = await t.fx.store();
  await assert.rejects(
    inTransaction(context(), async (tx) => {
      await emit(tx, { storeId: s.id, type: 'appointment.created', data: { n: 'rolled back' } }, t.clock.now());
      await tx.query('UPDATE stores SET name = $2 WHERE id = $1', [s.id, 'Renamed then rolled back']);
      throw new Error('the change fails after emitting');
    }),
    /the change fails after emitting/,
  );
  assert.equal((await t.db.query('SELECT 1 FROM events WHERE store_id = $1', [s.id])).rowCount, 0);
  assert.notEqual(
    (await t.db.query<{ name: string }>('SELECT name FROM stores WHERE id = $1', [s.id])).rows[0].name,
    'Renamed then rolled back',
    'the change itself rolled back too',
  );
});

test('one store never shares an event row with another: each row carries its own store and zone', async () => {
  const other = await t.fx.store({ timezone: 'America/New_York' });
  const otherUnit = await t.fx.unit(other.id);
  const otherToken = await t.fx.merchantToken(other.id);
  const res = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token: otherToken,
    body: {
      store_id: other.id,
      unit_id: otherUnit.id,
      guest_email: 'e@example.com',
      starts_at: '2026-06-02T14:00:00Z',
      ends_at: '2026-06-02T15:00:00Z',
    },
  });
  assert.equal(res.status, 200);
  const rows = (
    await t.db.query<EventRow>('SELECT store_id, timezone, occurred_at_local, data FROM events WHERE store_id = $1', [
      other.id,
    ])
  ).rows;
  assert.equal(rows.length, 1);
  assert.equal(rows[0].timezone, 'America/New_York');
  assert.equal(rows[0].occurred_at_local, '2026-06-01T05:00:00');
  assert.equal(rows[0].data.local_starts_at, '2026-06-02T10:00:00');
});

test('the feed returns events oldest first, strictly after a position, and withholds none that committed', async () => {
  const { readFeed } = await import('../../src/events/feed.repository.ts');
  const { feedSettled } = await import('./horizon.ts');
  await feedSettled(t.db);
  const { START, formatFeedCursor } = await import('../../src/events/feed-cursor.ts');
  const all = await readFeed(t.db, { storeId: store.id, after: START, limit: 100 });
  assert.deepEqual(
    all.map((e) => e.id),
    (await eventsOf('appointment.created')).map((e) => e.id),
  );
  const rest = await readFeed(t.db, { storeId: store.id, after: { txid: all[0].txid, seq: all[0].seq }, limit: 100 });
  assert.deepEqual(
    rest.map((e) => e.id),
    all.slice(1).map((e) => e.id),
  );
  assert.match(formatFeedCursor(all[0]), /^\d+\.\d+$/);
  assert.deepEqual(await readFeed(t.db, { storeId: store.id, after: START, limit: 100, types: ['queue.joined'] }), []);
});
