// GET /api/v1/events: the store's events oldest first after a cursor, filtered by type, only the
// caller's store; retention prunes after 90 days and an older cursor answers 410 CURSOR_EXPIRED.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call, errorCode } from '../support/http.ts';
import { pruneEvents, startPruning } from '../../src/events/retention.ts';
import { fixedClock } from '../../src/platform/clock.ts';
import { feedSettled } from './horizon.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const store = await t.fx.store({ timezone: 'Europe/London' });
const unit = await t.fx.unit(store.id);
const token = await t.fx.merchantToken(store.id);
const other = await t.fx.store();
const otherUnit = await t.fx.unit(other.id);
const otherToken = await t.fx.merchantToken(other.id);

async function feed(query: Record<string, string | number | undefined>, tok = token, storeId = store.id) {
  await feedSettled(t.db);
  return call(t.app, 'GET', '/api/v1/events', { token: tok, query: { store_id: storeId, ...query } });
}

let hour = 0;
async function book(tok = token, storeId = store.id, unitId = unit.id) {
  hour++;
  const day = String(10 + Math.floor(hour / 10)).padStart(2, '0');
  const h = String((hour % 10) + 8).padStart(2, '0');
  const res = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token: tok,
    body: {
      store_id: storeId,
      unit_id: unitId,
      guest_email: 'g@example.com',
      starts_at: `2026-06-${day}T${h}:00:00Z`,
      ends_at: `2026-06-${day}T${h}:30:00Z`,
    },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.appointment;
}

test("the feed answers the store's events oldest first, each with its cursor, UTC and local time", async () => {
  const a = await book();
  const b = await book();
  await book(otherToken, other.id, otherUnit.id);
  const res = await feed({});
  assert.equal(res.status, 200);
  assert.deepEqual(
    res.body.events.map((e: any) => e.data.id),
    [a.id, b.id],
  );
  const [first] = res.body.events;
  assert.deepEqual(Object.keys(first).sort(), [
    'actor',
    'cursor',
    'data',
    'id',
    'occurred_at',
    'occurred_at_local',
    'store_id',
    'timezone',
    'type',
  ]);
  assert.equal(first.type, 'appointment.created');
  assert.equal(first.store_id, store.id);
  assert.equal(first.occurred_at, '2026-06-01T09:00:00.000Z');
  assert.equal(first.occurred_at_local, '2026-06-01T10:00:00');
  assert.equal(first.timezone, 'Europe/London');
  assert.equal(res.body.next_cursor, res.body.events[1].cursor);
  assert.equal(res.body.has_more, false);
  // Resuming after the last cursor answers nothing, and keeps the cursor.
  const again = await feed({ after: res.body.next_cursor });
  assert.deepEqual(again.body, { events: [], next_cursor: res.body.next_cursor, has_more: false });
});

test('limit pages with has_more, and paging visits every event once', async () => {
  for (let i = 0; i < 4; i++) await book();
  const all = (await feed({ limit: 500 })).body.events.map((e: any) => e.id);
  const seen: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 20; pages++) {
    const res = await feed({ limit: 2, after });
    assert.equal(res.status, 200);
    seen.push(...res.body.events.map((e: any) => e.id));
    after = res.body.next_cursor;
    if (!res.body.has_more) break;
    assert.equal(res.body.events.length, 2);
  }
  assert.deepEqual(seen, all);
  assert.equal(new Set(seen).size, seen.length);
});

test('types filters, and unknown types answer 400 naming them', async () => {
  const a = await book();
  const cancel = await call(t.app, 'POST', '/api/v1/bookings/appointments/cancel', {
    token,
    body: { store_id: store.id, appointment_id: a.id },
  });
  assert.equal(cancel.status, 200);
  const res = await feed({ types: 'appointment.cancelled' });
  assert.deepEqual(
    res.body.events.map((e: any) => [e.type, e.data.id]),
    [['appointment.cancelled', a.id]],
  );
  const both = await feed({ types: 'appointment.cancelled, appointment.created', limit: 500 });
  assert.ok(both.body.events.some((e: any) => e.type === 'appointment.created'));
  const bad = await feed({ types: 'appointment.cancelled,nope.nope,appointment.exploded' });
  assert.equal(bad.status, 400);
  assert.equal(errorCode(bad), 'VALIDATION_FAILED');
  assert.match(bad.body.error.message, /nope\.nope, appointment\.exploded/);
});

test('limit and after are validated', async () => {
  assert.equal(errorCode(await feed({ limit: 0 })), 'VALIDATION_FAILED');
  assert.equal(errorCode(await feed({ limit: 501 })), 'VALIDATION_FAILED');
  assert.equal(errorCode(await feed({ after: 'abc' })), 'VALIDATION_FAILED');
});

test("only the caller's store: another store's events never appear, and its store_id is not a way in", async () => {
  const res = await feed({ limit: 500 }, otherToken, other.id);
  assert.ok(res.body.events.length >= 1);
  assert.ok(res.body.events.every((e: any) => e.store_id === other.id));
  // The spec (Conventions 2): a store_id identifies the store for authorisation and the authenticated
  // store wins when they differ. So naming this store with the other's token answers the other's feed,
  // exactly as its own store_id does.
  const crossed = await feed({ limit: 500 }, otherToken, store.id);
  assert.equal(crossed.status, 200, JSON.stringify(crossed.body));
  assert.deepEqual(crossed.body, res.body);
  assert.equal((await call(t.app, 'GET', '/api/v1/events', { query: { store_id: store.id } })).status, 401);
});

test('retention: events older than 90 days are pruned in batches; an older cursor answers 410 CURSOR_EXPIRED', async () => {
  const s = await t.fx.store();
  const u = await t.fx.unit(s.id);
  const tok = await t.fx.merchantToken(s.id);
  const old1 = await book(tok, s.id, u.id);
  const old2 = await book(tok, s.id, u.id);
  const oldCursors = (await feed({}, tok, s.id)).body.events.map((e: any) => e.cursor);
  t.clock.set('2026-08-15T09:00:00Z');
  const fresh = await book(tok, s.id, u.id);
  t.clock.set('2026-06-01T09:00:00Z');

  // 89 days later nothing is old enough; 90 days and a minute later the two June events go.
  assert.equal(await pruneEvents(t.db, new Date('2026-08-29T09:00:00Z')), 0);
  const before = (await t.db.query('SELECT count(*)::int AS n FROM events')).rows[0].n;
  const pruned = await pruneEvents(t.db, new Date('2026-08-30T09:01:00Z'), { batchSize: 2 });
  const after = (await t.db.query('SELECT count(*)::int AS n FROM events')).rows[0].n;
  assert.ok(pruned >= 2);
  assert.equal(before - after, pruned);

  const left = (await feed({}, tok, s.id)).body.events.map((e: any) => e.data.id);
  assert.deepEqual(left, [fresh.id]);
  assert.ok(!left.includes(old1.id) && !left.includes(old2.id));
  const expired = await feed({ after: oldCursors[0] }, tok, s.id);
  assert.equal(expired.status, 410);
  assert.equal(errorCode(expired), 'CURSOR_EXPIRED');
  // The last pruned position itself lost nothing after it.
  const atEdge = await feed({ after: oldCursors[1] }, tok, s.id);
  assert.equal(atEdge.status, 200);
  assert.deepEqual(
    atEdge.body.events.map((e: any) => e.data.id),
    [fresh.id],
  );
  const row = (await t.db.query('SELECT pruned_count::int AS n FROM events_pruned WHERE store_id = $1', [s.id]))
    .rows[0];
  assert.equal(row.n, 2);
});

test('the OpenAPI document lists every event type under webhooks with its payload, documents the feed and the stream, and stays valid', async () => {
  const { Validator } = await import('@seriousme/openapi-schema-validator');
  const { EVENT_TYPES } = await import('../../src/events/event-types.ts');
  const doc = (await call(t.app, 'GET', '/openapi.json')).body;
  assert.deepEqual(Object.keys(doc.webhooks).sort(), [...EVENT_TYPES].sort());
  const rescheduled = doc.webhooks['appointment.rescheduled'].post.requestBody.content['application/json'].schema;
  assert.deepEqual(rescheduled.properties.type.const, 'appointment.rescheduled');
  for (const f of ['id', 'type', 'store_id', 'occurred_at', 'occurred_at_local', 'timezone', 'data'])
    assert.ok(rescheduled.required.includes(f), f);
  assert.ok(rescheduled.properties.data.properties.local_starts_at);
  assert.ok(rescheduled.properties.data.properties.previous);
  assert.ok(doc.paths['/api/v1/events'].get);
  assert.ok(doc.paths['/api/v1/events/stream'].get.responses['200'].content['text/event-stream']);
  assert.ok(doc['x-error-codes'].CURSOR_EXPIRED);
  const result = await new Validator().validate(doc);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 2000));
});

test('the periodic pruning job (as server.ts starts it) prunes with its own clock, and stops', async () => {
  const s = await t.fx.store();
  const u = await t.fx.unit(s.id);
  const tok = await t.fx.merchantToken(s.id);
  await book(tok, s.id, u.id);
  const count = async () =>
    (await t.db.query('SELECT count(*)::int AS n FROM events WHERE store_id = $1', [s.id])).rows[0].n;
  assert.equal(await count(), 1);
  const logged: object[] = [];
  const job = startPruning(
    t.db,
    fixedClock('2026-09-15T00:00:00Z'),
    { info: (o) => logged.push(o), warn: (o) => logged.push(o) },
    60_000,
  );
  try {
    for (let i = 0; i < 200 && (await count()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
  } finally {
    job.stop();
  }
  assert.equal(await count(), 0);
  assert.ok(logged.some((o: any) => o.pruned >= 1));
});
