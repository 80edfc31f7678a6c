// The dispatcher's pass reads the events after its cursor, not the whole outbox: its cost follows
// the events it moves past, not the events kept (retention keeps days of them). Measured in shared
// buffers, which a plan that walks every kept event cannot keep low, whatever its shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { buffersTouched } from '../support/plan-cost.ts';
import { DISPATCH_SQL, dispatchBatch } from '../../src/webhooks/delivery-queue.repository.ts';

const t = await startTestApp();

test('a dispatch pass behind 4,000 kept events reads the 5 after its cursor in a few buffers, and moves past exactly them', async () => {
  const store = await t.fx.store();
  await t.db.query(
    `INSERT INTO events (store_id, type, occurred_at, occurred_at_local, timezone, data)
     SELECT $1, 'appointment.created', now(), 'x', 'UTC', '{}'::jsonb FROM generate_series(1, 4000)`,
    [store.id],
  );
  await t.db.query('ANALYZE events');
  // The feed's horizon is the whole cluster's: a test file running beside this one may hold it below
  // these events for a moment. Wait until all of them are below it, or the pass would read none.
  for (let i = 0; ; i++) {
    const below = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE txid < pg_snapshot_xmin(pg_current_snapshot())');
    if (below.rows[0].n === 4000) break;
    assert.ok(i < 200, 'the events came below the feed horizon within 10 s');
    await new Promise((r) => setTimeout(r, 50));
  }
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
