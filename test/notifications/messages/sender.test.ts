// The sender's claim: a message claimed by a sender that died is taken again once the lease runs
// out, with the same Message-ID; a claim is never used after half its lease (the send must finish
// while the claim is still held).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { claimDue } from '../../../src/notifications/messages/sender.repository.ts';
import { sendDue, type SenderOptions } from '../../../src/notifications/messages/sender.ts';
import type { OutgoingMessage, Transport } from '../../../src/notifications/channels/transport.ts';
import { book, messagesOf, shop, workerFor } from './support.ts';

test('a claim whose sender died is taken again after the lease, and the resend carries the same Message-ID', async () => {
  const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
  const s = await shop(t);
  const c = await t.fx.customer({ email: 'lease@example.test' });
  await t.fx.membership(s.store.id, c.id);
  const a = await book(t, s, '2026-06-10T09:30:00Z', { customer_id: c.id });
  // Plan only (no channel would put it in the mailbox): plan with a worker, then put it back to pending.
  await workerFor(t).drain();
  await t.db.query(
    `UPDATE messages SET status = 'pending', attempts = 0 WHERE subject_id = $1 AND kind = 'confirmation'`,
    [a.id],
  );

  const sent: OutgoingMessage[] = [];
  const transport: Transport = {
    channel: 'email',
    async send(m) {
      sent.push(m);
      return { providerId: 'ok' };
    },
    async close() {},
  };
  const o: SenderOptions = {
    db: t.db,
    clock: t.clock,
    transports: { email: transport },
    leaseMs: 60_000,
    batch: 10,
    concurrency: 1,
    maxAttempts: 5,
    retryBaseMs: 1000,
  };

  // A sender claims it and dies before recording anything.
  const [claimed] = await claimDue(
    t.db,
    t.clock.now().toISOString(),
    new Date(t.clock.now().getTime() + 60_000).toISOString(),
    crypto.randomUUID(),
    10,
  );
  assert.equal(claimed.kind, 'confirmation');
  // While the lease holds, nobody else takes it.
  t.clock.advance(59_000);
  assert.equal((await sendDue(o)).claimed, 0);
  t.clock.advance(2_000);
  const tally = await sendDue(o);
  assert.equal(tally.sent, 1);
  assert.equal(sent.length, 1);
  assert.equal(sent[0].messageId, claimed.message_id);
  const row = (await messagesOf(t, a.id)).find((m) => m.kind === 'confirmation')!;
  assert.deepEqual([row.status, row.attempts, row.message_id], ['sent', 2, claimed.message_id]);
});

test('messages not started within half the lease are handed back unsent, not attempted', async () => {
  const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
  const s = await shop(t);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const c = await t.fx.customer({ email: `slow-${i}@example.test` });
    await t.fx.membership(s.store.id, c.id);
    ids.push((await book(t, s, `2026-06-10T0${i + 1}:00:00Z`, { customer_id: c.id })).id);
  }
  await workerFor(t).drain();
  await t.db.query(`UPDATE messages SET status = 'pending', attempts = 0 WHERE kind = 'confirmation'`);
  // Each send takes longer than half the lease.
  const transport: Transport = {
    channel: 'email',
    async send() {
      t.clock.advance(31_000);
      return { providerId: 'ok' };
    },
    async close() {},
  };
  const o: SenderOptions = {
    db: t.db,
    clock: t.clock,
    transports: { email: transport },
    leaseMs: 60_000,
    batch: 10,
    concurrency: 1,
    maxAttempts: 5,
    retryBaseMs: 1000,
  };
  const tally = await sendDue(o);
  assert.equal(tally.claimed, 3);
  assert.equal(tally.sent, 1);
  const rows = (
    await t.db.query(`SELECT status, attempts, lease_token FROM messages WHERE kind = 'confirmation' ORDER BY status`)
  ).rows;
  assert.deepEqual(rows, [
    { status: 'pending', attempts: 0, lease_token: null },
    { status: 'pending', attempts: 0, lease_token: null },
    { status: 'sent', attempts: 1, lease_token: null },
  ]);
});
