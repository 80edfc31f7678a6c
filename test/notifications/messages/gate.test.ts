// The gate (maySend) over every preference, mute, block, consent and erasure case, through the real
// send path: bookings made through the API, messages planned from the feed, sent to a real SMTP
// server. Each row is one customer at one shop; what arrived and what was recorded are both checked.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { book, messagesOf, shop, startSmtp, statusCall, workerFor, type Shop } from './support.ts';

const smtp = await startSmtp();
after(() => smtp.close());

type Outcome = string; // 'sent' or the suppression reason
interface Row {
  name: string;
  guest?: boolean;
  /** Done after booking and before the worker first runs. */
  setup?: (t: TestApp, s: Shop, customerId: string | null, email: string) => Promise<void>;
  confirmation: Outcome;
  reminder: Outcome;
  rebook_nudge: Outcome;
}

const prefs = (body: Record<string, boolean>) => async (t: TestApp, s: Shop, customerId: string | null) => {
  const r = await call(t.app, 'POST', '/api/v1/notifications/preferences', {
    token: await t.fx.customerToken(customerId!),
    body: { storeId: s.store.id, ...body },
  });
  assert.equal(r.status, 200);
};
const block = (body: Record<string, unknown>) => async (t: TestApp, s: Shop, customerId: string | null) => {
  const r = await call(t.app, 'PATCH', `/api/v1/customers/${customerId}/block`, {
    token: s.token,
    body: { store_id: s.store.id, ...body },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
};

const ALL = (o: Outcome) => ({ confirmation: o, reminder: o, rebook_nudge: o });
const ROWS: Row[] = [
  {
    name: 'nothing saved: transactional messages go, marketing is opt-in',
    confirmation: 'sent',
    reminder: 'sent',
    rebook_nudge: 'category_disabled',
  },
  {
    name: 'messagesMuted stops everything',
    setup: prefs({ messagesMuted: true, marketingEnabled: true }),
    ...ALL('messages_muted'),
  },
  {
    name: 'classEventsEnabled off stops the booking notices only',
    setup: prefs({ classEventsEnabled: false }),
    confirmation: 'category_disabled',
    reminder: 'sent',
    rebook_nudge: 'category_disabled',
  },
  {
    name: 'classReminders off stops the reminder only',
    setup: prefs({ classReminders: false }),
    confirmation: 'sent',
    reminder: 'category_disabled',
    rebook_nudge: 'category_disabled',
  },
  {
    name: 'marketingEnabled on allows the rebooking nudge',
    setup: prefs({ marketingEnabled: true }),
    confirmation: 'sent',
    reminder: 'sent',
    rebook_nudge: 'sent',
  },
  {
    name: 'marketing consent recorded at the store (roster) counts when nothing was saved',
    setup: async (t, s, id) => {
      await t.db.query(
        'UPDATE store_customers SET marketing_opted_in = true WHERE store_id = $1 AND customer_id = $2',
        [s.store.id, id],
      );
    },
    confirmation: 'sent',
    reminder: 'sent',
    rebook_nudge: 'sent',
  },
  {
    name: 'the customer\'s own "no" to marketing beats consent recorded at the store',
    setup: async (t, s, id, _email) => {
      await t.db.query(
        'UPDATE store_customers SET marketing_opted_in = true WHERE store_id = $1 AND customer_id = $2',
        [s.store.id, id],
      );
      await prefs({ marketingEnabled: false })(t, s, id);
    },
    confirmation: 'sent',
    reminder: 'sent',
    rebook_nudge: 'category_disabled',
  },
  { name: 'a store block stops everything', setup: block({ blocked: true }), ...ALL('blocked') },
  {
    name: 'a block beats marketing consent',
    setup: async (t, s, id, _e) => {
      await prefs({ marketingEnabled: true })(t, s, id);
      await block({ blocked: true })(t, s, id);
    },
    ...ALL('blocked'),
  },
  {
    name: 'email muted by the store stops email',
    setup: block({ blocked_channels: ['email'] }),
    ...ALL('channel_muted'),
  },
  {
    name: 'sms muted by the store leaves email',
    setup: block({ blocked_channels: ['sms'] }),
    confirmation: 'sent',
    reminder: 'sent',
    rebook_nudge: 'category_disabled',
  },
  {
    name: 'a lifted block lets messages through again',
    setup: async (t, s, id) => {
      await block({ blocked: true })(t, s, id);
      await block({ blocked: false })(t, s, id);
    },
    confirmation: 'sent',
    reminder: 'sent',
    rebook_nudge: 'category_disabled',
  },
  {
    name: 'an erased customer gets nothing',
    setup: async (t, _s, id) => {
      assert.equal(
        (
          await call(t.app, 'POST', `/admin/v1/customers/${id}/erase`, {
            headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          })
        ).status,
        200,
      );
    },
    ...ALL('customer_erased'),
  },
  {
    name: 'a guest with only an email gets transactional mail and nothing else',
    guest: true,
    confirmation: 'sent',
    reminder: 'sent',
    rebook_nudge: 'guest_transactional_only',
  },
  {
    name: "a guest booking under a customer's email follows that customer's preferences",
    guest: true,
    setup: async (t, s, _id, email) => {
      const c = await t.fx.customer({ email });
      await prefs({ messagesMuted: true })(t, s, c.id);
    },
    ...ALL('messages_muted'),
  },
];

test('every gate case, through the real send path: what arrives and the reason recorded for what does not', async () => {
  const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
  const s = await shop(t);
  await t.db.query('UPDATE services SET rebook_interval_days = 28 WHERE id = $1', [s.service.id]);
  const worker = workerFor(t, { SMTP_URL: smtp.url });
  const cases: Array<{ row: Row; email: string; appointmentId: string }> = [];
  for (const [i, row] of ROWS.entries()) {
    const email = `gate-${i}@example.test`;
    let customerId: string | null = null;
    if (!row.guest) {
      customerId = (await t.fx.customer({ email })).id;
      await t.fx.membership(s.store.id, customerId);
    }
    // Each on its own hour on 10 June, so the reminders fall due together on the 9th.
    const startsAt = new Date(Date.parse('2026-06-10T07:00:00Z') + i * 3_600_000).toISOString();
    const a = await book(
      t,
      s,
      startsAt.replace('.000Z', 'Z'),
      row.guest ? { guest_name: 'Guest', guest_email: email } : { customer_id: customerId! },
    );
    await row.setup?.(t, s, customerId, email);
    cases.push({ row, email, appointmentId: a.id });
  }
  await worker.drain(); // confirmations
  t.clock.set('2026-06-10T06:00:00Z');
  await worker.drain(); // reminders
  for (const c of cases) await statusCall(t, s, c.appointmentId, 'complete');
  t.clock.set('2026-07-09T12:00:00Z');
  await worker.drain(); // rebooking nudges, 28 days after completion

  for (const c of cases) {
    const rows = await messagesOf(t, c.appointmentId);
    for (const kind of ['confirmation', 'reminder', 'rebook_nudge'] as const) {
      const m = rows.find((r) => r.kind === kind);
      assert.ok(m, `${c.row.name}: a ${kind} is recorded`);
      const outcome = m.status === 'sent' ? 'sent' : m.reason;
      assert.equal(outcome, c.row[kind], `${c.row.name}: ${kind}`);
      if (m.status !== 'sent') assert.equal(m.status, 'suppressed', `${c.row.name}: ${kind} is suppressed, not lost`);
      const arrived = smtp.received.filter((r) => r.mail.messageId === m.message_id).length;
      assert.equal(arrived, c.row[kind] === 'sent' ? 1 : 0, `${c.row.name}: ${kind} arrived ${arrived} times`);
    }
  }
  // Nothing is left pending: every message was either sent or recorded with its reason.
  const left = await t.db.query(`SELECT count(*)::int AS n FROM messages WHERE status IN ('pending', 'sending')`);
  assert.equal(left.rows[0].n, 0);
});
