// The feed race (server engine). First the case itself, forced: one writer's transaction takes
// its id and sequence number and is held open while later writers commit, so commits reach the
// table out of feed order; the feed must wait for the held one, then yield all in order, none
// skipped. Then a storm: many writers through three apps commit concurrently while a reader polls
// GET /api/v1/events with its cursor; it sees every committed event exactly once, in feed order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call } from '../support/http.ts';
import { emit } from '../../src/events/outbox.ts';
import { feedSettled } from './horizon.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });

test('a writer held open while later writers commit: the feed waits for it, then yields every event in feed order, none skipped', async () => {
  const store = await t.fx.store();
  const token = await t.fx.merchantToken(store.id);
  const unit = await t.fx.unit(store.id);
  const page = async (after?: string) => {
    const res = await call(t.app, 'GET', '/api/v1/events', { token, query: { store_id: store.id, after, limit: 2 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { events: Array<{ id: string; type: string }>; next_cursor: string; has_more: boolean };
  };

  // The held writer: its first write (through the outbox) gives it its transaction id and sequence number.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let heldWrote!: (txid: bigint) => void;
  const wrote = new Promise<bigint>((resolve) => (heldWrote = resolve));
  const held = t.db.transaction(async (tx) => {
    await emit(tx, { storeId: store.id, type: 'appointment.created', data: { id: 'held-writer' } }, t.clock.now());
    heldWrote(BigInt((await tx.query<{ x: string }>('SELECT pg_current_xact_id()::text AS x')).rows[0].x));
    await released;
  });
  const heldTxid = await wrote;

  // Later writers commit through the API while it is open.
  for (let i = 0; i < 3; i++) {
    const starts = new Date(Date.UTC(2026, 6, 1, 9 + i)).toISOString();
    const ends = new Date(Date.UTC(2026, 6, 1, 9 + i, 30)).toISOString();
    const res = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
      token,
      body: { store_id: store.id, unit_id: unit.id, guest_email: 'race@example.com', starts_at: starts, ends_at: ends },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
  const committed = (
    await t.db.query<{ txid: string }>('SELECT txid::text AS txid FROM events WHERE store_id = $1', [store.id])
  ).rows;
  assert.equal(committed.length, 3, 'the three later events are committed, the held one is not');
  assert.ok(
    committed.every((r) => BigInt(r.txid) > heldTxid),
    'the committed events come after the held one in feed order: commits are out of order',
  );

  // While the held writer is open the feed shows none of them: a reader that got one could pass the held event's place.
  const during = await page();
  assert.deepEqual(during.events, [], 'the feed showed an event from after a transaction still open');
  assert.equal(during.has_more, false);

  release();
  await held;
  // The horizon is the whole cluster's: on a busy shared server other databases' transactions hold it back.
  await feedSettled(t.db, 60_000);
  const seen: string[] = [];
  let cursor: string | undefined = during.next_cursor ?? undefined;
  for (;;) {
    const p = await page(cursor);
    seen.push(...p.events.map((e) => e.id));
    cursor = p.next_cursor;
    if (!p.has_more) break;
  }
  const order = (
    await t.db.query<{ id: string; subject: string }>(
      `SELECT id, data->>'id' AS subject FROM events WHERE store_id = $1 ORDER BY txid, seq`,
      [store.id],
    )
  ).rows;
  assert.equal(order.length, 4);
  assert.equal(order[0].subject, 'held-writer', 'the held event is first in feed order');
  assert.deepEqual(
    seen,
    order.map((r) => r.id),
    'the feed, paged from the cursor it gave during the hold, yields all four in feed order, none skipped',
  );
});

test('a reader polling during a write storm sees every committed event exactly once, in order', async (ctx) => {
  const store = await t.fx.store();
  const token = await t.fx.merchantToken(store.id);
  const apps = [t.app, await t.sibling(), await t.sibling()];
  const LOOPS_PER_APP = 4;
  const PER_LOOP = 25;
  const units = await Promise.all(Array.from({ length: apps.length * LOOPS_PER_APP }, () => t.fx.unit(store.id)));

  let writing = true;
  const writers = apps.flatMap((app, a) =>
    Array.from({ length: LOOPS_PER_APP }, async (_, l) => {
      const unit = units[a * LOOPS_PER_APP + l];
      for (let i = 0; i < PER_LOOP; i++) {
        const start = new Date(Date.UTC(2026, 6, 1) + i * 3600_000).toISOString();
        const end = new Date(Date.UTC(2026, 6, 1) + i * 3600_000 + 1800_000).toISOString();
        const res = await call(app, 'POST', '/api/v1/bookings/appointments', {
          token,
          body: {
            store_id: store.id,
            unit_id: unit.id,
            guest_email: 'race@example.com',
            starts_at: start,
            ends_at: end,
          },
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        // Every third booking is cancelled at once: two events per transaction pair, interleaved.
        if (i % 3 === 0) {
          const c = await call(app, 'POST', '/api/v1/bookings/appointments/cancel', {
            token,
            body: { store_id: store.id, appointment_id: res.body.appointment.id },
          });
          assert.equal(c.status, 200);
        }
      }
    }),
  );

  const seen: string[] = [];
  let cursor: string | undefined;
  let polls = 0;
  const reader = (async () => {
    for (;;) {
      const stillWriting = writing;
      const res = await call(t.app, 'GET', '/api/v1/events', {
        token,
        query: { store_id: store.id, after: cursor, limit: 37 },
      });
      assert.equal(res.status, 200);
      polls++;
      seen.push(...res.body.events.map((e: any) => e.id));
      cursor = res.body.next_cursor;
      if (!stillWriting && !res.body.has_more && res.body.events.length === 0) {
        // The writers are done: drain what is still below the horizon, then stop.
        await feedSettled(t.db);
        const last = await call(t.app, 'GET', '/api/v1/events', {
          token,
          query: { store_id: store.id, after: cursor, limit: 500 },
        });
        seen.push(...last.body.events.map((e: any) => e.id));
        if (last.body.events.length === 0) return;
        cursor = last.body.next_cursor;
      }
    }
  })();

  await Promise.all(writers);
  writing = false;
  await reader;

  const committed = (
    await t.db.query<{ id: string }>('SELECT id FROM events WHERE store_id = $1 ORDER BY txid, seq', [store.id])
  ).rows.map((r) => r.id);
  const expected = apps.length * LOOPS_PER_APP * (PER_LOOP + Math.ceil(PER_LOOP / 3));
  assert.equal(committed.length, expected);
  assert.equal(new Set(seen).size, seen.length, 'an event was seen twice');
  assert.deepEqual(seen, committed, 'the reader missed an event or saw them out of feed order');
  assert.ok(polls > 5, `the reader polled during the storm (${polls} polls)`);
  // The storm did commit out of sequence order somewhere, which is what a naive seq cursor would trip on.
  const bySeq = (
    await t.db.query<{ id: string }>('SELECT id FROM events WHERE store_id = $1 ORDER BY seq', [store.id])
  ).rows.map((r) => r.id);
  ctx.diagnostic(
    `events ${committed.length}, polls ${polls}, seq order differs from feed order: ${JSON.stringify(bySeq) !== JSON.stringify(committed)}`,
  );
});
