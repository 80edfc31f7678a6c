// The backlog metric's counts follow what they count, not every pending message: future reminders
// are pending for weeks, and a count that walks them costs every scrape more as the diary fills.
// Measured in shared buffers, which a plan that visits every pending row cannot keep low.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { buffersTouched } from '../support/plan-cost.ts';
import { BACKLOG_SQL, readBacklog } from '../../src/platform/metrics/backlog.ts';

const t = await startTestApp();

test('with 3,000 reminders pending for next month and 2 messages retrying, the backlog reads 2 retrying, 0 due, in a few buffers', async () => {
  const store = await t.fx.store();
  const now = new Date();
  // Rows about as wide as a rendered message, so a walk over them costs what it would.
  await t.db.query(
    `INSERT INTO messages (store_id, kind, subject_id, version, channel, category, to_address, subject, body_text, body_html,
                           message_id, status, last_error, due_at, created_at, updated_at)
     SELECT $1, 'reminder', gen_random_uuid(), 'v1', 'email', 'transactional', 'someone@example.test', 'Reminder',
            repeat('t', 200), repeat('h', 900), 'm' || i || '@example.test', 'pending',
            CASE WHEN i <= 2 THEN 'connection refused' END, $2::timestamptz + interval '30 days', $2, $2
       FROM generate_series(1, 3002) AS i`,
    [store.id, now.toISOString()],
  );
  await t.db.query('ANALYZE messages');

  const backlog = await readBacklog(t.db, now);
  assert.deepEqual(backlog.messages, { due: 0, retrying: 2, failed: 0 });

  const buffers = await buffersTouched(t.db, BACKLOG_SQL, [now.toISOString()]);
  // The counts' own indexes: 8 buffers when measured; visiting the 3,002 pending rows of about 1.3 kB: 514.
  assert.ok(buffers < 50, `the backlog read touched ${buffers} buffers`);
});
