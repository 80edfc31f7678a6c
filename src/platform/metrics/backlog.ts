// What the database holds for the background work, read at scrape time: webhook deliveries and
// customer messages due, retrying and failed, and how far each feed consumer is behind. One
// statement of index-backed counts; its answer is kept KEEP_MS so that scrapes (several Prometheus
// servers, or a person reloading) cannot hammer the database.
import type { Queryable } from '../db/port.ts';
import type { Clock } from '../clock.ts';
import type { BacklogFacts } from './metrics.ts';

/** How long one answer is served to later scrapes. */
export const KEEP_MS = 5_000;

// Each count is one partial index's range:
//  - due and retrying deliveries: webhook_deliveries_due (status = 'pending');
//  - failed deliveries: webhook_deliveries_failed (status = 'failed');
//  - due messages: messages_due (status IN ('pending', 'sending'));
//  - retrying messages: messages_retrying (those of them with a last error; migration 150). Through
//    messages_due the count read every pending message, future reminders included;
//  - failed messages: messages_failed (status = 'failed').
// Feed lag: each consumer's stored cursor, and the first event after it in feed order (the events
// primary key, (txid, seq)). Its age is how long the consumer has left it waiting; no event after
// the cursor means it is caught up (0). An event not yet below the feed's horizon counts: it waits too.
export const BACKLOG_SQL = `
SELECT
  (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $1)::int AS webhooks_due,
  (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending' AND attempts > 0
                                          AND (locked_until IS NULL OR locked_until <= $1))::int AS webhooks_retrying,
  (SELECT count(*) FROM webhook_deliveries WHERE status = 'failed')::int AS webhooks_failed,
  (SELECT count(*) FROM messages WHERE status IN ('pending', 'sending') AND due_at <= $1)::int AS messages_due,
  (SELECT count(*) FROM messages WHERE status IN ('pending', 'sending') AND last_error IS NOT NULL)::int AS messages_retrying,
  (SELECT count(*) FROM messages WHERE status = 'failed')::int AS messages_failed,
  (SELECT greatest(0, extract(epoch FROM $1::timestamptz - e.occurred_at))::float8
     FROM webhook_dispatch_cursor c
     CROSS JOIN LATERAL (SELECT occurred_at FROM events e WHERE (e.txid, e.seq) > (c.txid, c.seq)
                          ORDER BY e.txid, e.seq LIMIT 1) e) AS dispatcher_lag,
  (SELECT greatest(0, extract(epoch FROM $1::timestamptz - e.occurred_at))::float8
     FROM message_planner_cursor c
     CROSS JOIN LATERAL (SELECT occurred_at FROM events e WHERE (e.txid, e.seq) > (c.txid, c.seq)
                          ORDER BY e.txid, e.seq LIMIT 1) e
    WHERE c.name = 'messages') AS planner_lag`;

interface BacklogRow {
  webhooks_due: number;
  webhooks_retrying: number;
  webhooks_failed: number;
  messages_due: number;
  messages_retrying: number;
  messages_failed: number;
  dispatcher_lag: number | null;
  planner_lag: number | null;
}

export async function readBacklog(db: Queryable, now: Date): Promise<BacklogFacts> {
  const { rows } = await db.query<BacklogRow>(BACKLOG_SQL, [now.toISOString()]);
  const r = rows[0];
  return {
    webhookDeliveries: { due: r.webhooks_due, retrying: r.webhooks_retrying, failed: r.webhooks_failed },
    messages: { due: r.messages_due, retrying: r.messages_retrying, failed: r.messages_failed },
    eventLagSeconds: { webhook_dispatcher: r.dispatcher_lag ?? 0, message_planner: r.planner_lag ?? 0 },
  };
}

/** readBacklog, answered from the last read for KEEP_MS; scrapes at once share one read. */
export function cachedBacklog(
  db: Queryable,
  clock: Clock,
  nowMs: () => number = Date.now,
): () => Promise<BacklogFacts> {
  let kept: { at: number; facts: Promise<BacklogFacts> } | null = null;
  return () => {
    const at = nowMs();
    if (kept && at - kept.at < KEEP_MS) return kept.facts;
    const facts = readBacklog(db, clock.now());
    kept = { at, facts };
    // A failed read is not kept: the next scrape tries again.
    facts.catch(() => {
      if (kept?.facts === facts) kept = null;
    });
    return facts;
  };
}
