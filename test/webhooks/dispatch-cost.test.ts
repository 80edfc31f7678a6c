// The dispatch statement (src/webhooks/delivery-queue.repository.ts). Its pass reads the events after
// its cursor, not the whole outbox: its cost follows the events it moves past, not the events kept
// (retention keeps days of them). Measured in shared buffers, which a plan that walks every kept event
// cannot keep low, whatever its shape. And an endpoint receives only what happened since it was
// registered, however late the pass reaches an older event.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call } from '../support/http.ts';
import { emit } from '../../src/events/outbox.ts';
import { buffersTouched } from '../support/plan-cost.ts';
import { DISPATCH_SQL, dispatchBatch } from '../../src/webhooks/delivery-queue.repository.ts';

const t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });

/**
 * The feed's horizon is the whole cluster's: a test file running beside this one may hold it below
 * the events just written for a moment. Waits until all `n` events are below it, or a pass would read none.
 */
async function allBelowHorizon(n: number) {
  for (let i = 0; ; i++) {
    const below = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM events WHERE txid < pg_snapshot_xmin(pg_current_snapshot())',
    );
    if (below.rows[0].n === n) return;
    assert.ok(i < 200, 'the events came below the feed horizon within 10 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('a dispatch pass behind 4,000 kept events reads the 5 after its cursor in a few buffers, and moves past exactly them', async () => {
  const store = await t.fx.store();
  await t.db.query(
    `INSERT INTO events (store_id, type, occurred_at, occurred_at_local, timezone, data)
     SELECT $1, 'appointment.created', now(), 'x', 'UTC', '{}'::jsonb FROM generate_series(1, 4000)`,
    [store.id],
  );
  await t.db.query('ANALYZE events');
  await allBelowHorizon(4000);
  // The cursor stands on the sixth-newest event: five are left to dispatch.
  await t.db.query(
    `UPDATE webhook_dispatch_cursor c SET txid = e.txid, seq = e.seq
       FROM (SELECT txid, seq FROM events ORDER BY txid DESC, seq DESC OFFSET 5 LIMIT 1) e`,
  );
  const now = new Date().toISOString();

  // Explained with ANALYZE (so it runs), then rolled back: the pass below starts from the same place.
  const buffers = await buffersTouched(t.db, DISPATCH_SQL, [now, 200]);
  // The whole pass (lock, feed, deliveries, cursor) from the cursor's index range: 15 buffers when
  // measured; walking the 4,000 events from the start of the index: 84.
  assert.ok(buffers < 40, `the pass touched ${buffers} buffers`);

  const pass = await dispatchBatch(t.db, now, 200);
  assert.deepEqual(pass, { events: 5, deliveries: 0, moved: 1 });
  const left = await t.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM events e, webhook_dispatch_cursor c WHERE (e.txid, e.seq) > (c.txid, c.seq)`,
  );
  assert.equal(left.rows[0].n, 0, 'the cursor stands on the newest event');
});

test('an endpoint receives the events since its registration, not an older one the pass reaches after it', async () => {
  const store = await t.fx.store();
  const token = await t.fx.merchantToken(store.id);
  const registeredAt = t.clock.now();
  // Written before the pass runs, but it happened a minute before the endpoint existed.
  await emit(
    t.db,
    { storeId: store.id, type: 'appointment.created', data: { n: 'before' } },
    new Date(registeredAt.getTime() - 60_000),
  );
  const r = await call(t.app, 'POST', '/api/v1/webhooks/endpoints', {
    token,
    body: { url: 'http://127.0.0.1:9/hook' },
  });
  assert.equal(r.status, 200);
  await emit(
    t.db,
    { storeId: store.id, type: 'appointment.created', data: { n: 'after' } },
    new Date(registeredAt.getTime() + 60_000),
  );
  const kept = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
  await allBelowHorizon(kept.rows[0].n);

  let moved = 0;
  for (
    let pass = await dispatchBatch(t.db, registeredAt.toISOString(), 1000);
    pass.events > 0;
    pass = await dispatchBatch(t.db, registeredAt.toISOString(), 1000)
  )
    moved += pass.events;
  assert.ok(moved >= 2, 'the pass moved past both events');
  const delivered = await t.db.query<{ n: string }>(
    `SELECT e.data->>'n' AS n FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE d.store_id = $1`,
    [store.id],
  );
  assert.deepEqual(
    delivered.rows.map((x) => x.n),
    ['after'],
  );
});
