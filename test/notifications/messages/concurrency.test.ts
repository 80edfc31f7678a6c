// Several processes run the sender side by side: the message claims (FOR UPDATE SKIP LOCKED, then a
// lease) mean every message is sent once.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, testConfig } from '../../support/app.ts';
import { openPg } from '../../../src/platform/db/pg.adapter.ts';
import { transportsFor } from '../../../src/notifications/messages/worker.ts';
import { sendDue } from '../../../src/notifications/messages/sender.ts';
import { messageIdFor } from '../../../src/notifications/messages/planner.ts';
import { insertMessage } from '../../../src/notifications/messages/messages.repository.ts';
import { book, shop, startSmtp } from './support.ts';

const smtp = await startSmtp();
after(() => smtp.close());

test('two workers on separate pools send every message exactly once', async () => {
  const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
  const s = await shop(t);
  const N = 60;
  for (let i = 0; i < N; i++) {
    const c = await t.fx.customer({ email: `many-${i}@example.test` });
    await t.fx.membership(s.store.id, c.id);
    await book(t, s, new Date(Date.parse('2026-06-10T00:00:00Z') + i * 3_600_000).toISOString(), { customer_id: c.id });
  }
  const config = testConfig({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Bookings <bookings@shop.test>',
    MESSAGES_BATCH: '4',
    MESSAGES_CONCURRENCY: '2',
  }).messages;
  const otherDb = openPg({ connectionString: t.url!, poolSize: 4 });
  after(() => otherDb.close());
  const senders = (db: typeof t.db) => ({
    db,
    clock: t.clock,
    transports: transportsFor(config),
    leaseMs: 60_000,
    batch: 4,
    concurrency: 2,
    maxAttempts: 3,
    retryBaseMs: 1000,
  });
  const a = senders(t.db);
  const b = senders(otherDb);
  // The messages as the planner writes them (planned here directly: on a shared server the feed
  // waits for every older transaction of the whole cluster, which this test should not depend on).
  const appts = (
    await t.db.query(
      `SELECT a.id, a.customer_id, a.starts_at, c.email FROM appointments a JOIN customers c ON c.id = a.customer_id`,
    )
  ).rows;
  for (const a of appts) {
    await insertMessage(
      t.db,
      {
        storeId: s.store.id,
        kind: 'confirmation',
        subjectId: a.id,
        version: 'v1',
        channel: 'email',
        category: 'class_events',
        customerId: a.customer_id,
        toAddress: a.email,
        appointmentId: a.id,
        queueEntryId: null,
        plannedStart: a.starts_at,
        subject: 'Booking confirmed',
        bodyText: 'text',
        bodyHtml: '<p>html</p>',
        ics: null,
        icsSequence: null,
        messageId: messageIdFor(`confirmation:${a.id}:v1:email`, 'shop.test'),
        dueAt: t.clock.now().toISOString(),
      },
      t.clock.now().toISOString(),
    );
  }
  // Then both send at once.
  const tallies = [{ sent: 0 }, { sent: 0 }];
  await Promise.all(
    [a, b].map(async (o, i) => {
      for (;;) {
        const r = await sendDue(o);
        tallies[i].sent += r.sent;
        if (r.claimed === 0) return;
      }
    }),
  );
  for (const o of [a, b]) await o.transports.email!.close();

  const rows = (await t.db.query(`SELECT message_id, status FROM messages WHERE kind = 'confirmation'`)).rows;
  assert.equal(rows.length, N);
  assert.ok(rows.every((r) => r.status === 'sent'));
  const counts = new Map<string, number>();
  for (const r of smtp.received) counts.set(r.mail.messageId!, (counts.get(r.mail.messageId!) ?? 0) + 1);
  assert.equal(counts.size, N);
  assert.ok(
    [...counts.values()].every((n) => n === 1),
    'no message arrived twice',
  );
  assert.ok(
    tallies.every((x) => x.sent > 0),
    `both workers sent some (${tallies.map((x) => x.sent).join(' + ')})`,
  );
});
