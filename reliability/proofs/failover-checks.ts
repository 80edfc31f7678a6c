// The failover drill's checks after the fact (proofs/failover.ts), by SQL on the primary and on
// /metrics: acknowledged writes present, no overlaps, no duplicates, retries replayed, the events
// feed whole and in order, the background consumers caught up, the outage visible on /metrics.
import { isDeepStrictEqual } from 'node:util';
import { http, pool } from '../client.ts';
import { sleep } from '../env.ts';
import type { FeedReader, Storm } from '../failover-storm.ts';
import type { HoldStorm } from '../failover-holds.ts';
import type { ProofRun } from '../proof.ts';
import type { Queryable } from '../../src/platform/db/port.ts';
import { PLANNED_TYPES } from '../../src/notifications/messages/planner.ts';
import type { ServerProcess } from '../server-process.ts';
import type { Scenario } from './failover-scenarios.ts';
import { parseFeedCursor } from '../../src/events/feed-cursor.ts';

export const METRICS_TOKEN = 'failover-drill-metrics-token-0123';
const fmt = (ms: number) => (ms / 1000).toFixed(1);

/** Returns the acknowledged creates the new primary does not have. */
export async function checkInvariants(
  p: ProofRun,
  scenario: Scenario,
  db: Queryable,
  store: string,
  storm: Storm,
  holds: HoldStorm,
  feed: FeedReader,
  servers: ServerProcess[],
  token: string,
): Promise<Set<string>> {
  const ids = storm.creates.map((c) => c.id);
  const present = await db.query<{ id: string; starts_at: string }>(
    'SELECT id, starts_at FROM appointments WHERE id = ANY($1::uuid[])',
    [ids],
  );
  const lost = ids.length - present.rowCount;
  p.figure('lost (acknowledged creates missing)', `${lost} of ${ids.length}`);
  // Asynchronous replication may lose what the old primary acknowledged but had not sent: that is
  // the figure this scenario exists to record, not a failure of the drill.
  if (scenario !== 'async')
    p.check(lost === 0, 'an acknowledged create is missing on the new primary', `${lost} of ${ids.length}`);
  const byId = new Map(present.rows.map((r) => [r.id, r]));
  let movedLost = 0;
  for (const [id, to] of storm.moved) if (byId.has(id) && byId.get(id)!.starts_at !== to.starts_at) movedLost++;
  p.figure('acknowledged moves not in place', movedLost);
  if (scenario !== 'async')
    p.check(movedLost === 0, 'an acknowledged move is not in place on the new primary', String(movedLost));

  // Everything that occupies a unit's time, read from the rows themselves (not the occupancy table
  // the constraint guards): live appointments and holds not yet released.
  const overlaps = await db.query<{ n: number }>(
    `WITH taken AS (
       SELECT unit_id, block, 'appointment ' || id AS what FROM appointments
        WHERE store_id = $1 AND status NOT IN ('cancelled', 'no_show') AND NOT is_override
       UNION ALL
       SELECT unit_id, block, 'hold ' || id FROM holds WHERE store_id = $1 AND released_at IS NULL)
     SELECT count(*)::int AS n FROM taken a JOIN taken b ON a.unit_id = b.unit_id AND a.what < b.what AND a.block && b.block`,
    [store],
  );
  p.figure('overlaps (appointments and live holds)', overlaps.rows[0].n);
  p.check(overlaps.rows[0].n === 0, 'overlapping bookings', String(overlaps.rows[0].n));

  // Every request was retried with its key until it had an answer, so every row is an acknowledged
  // create or confirm: more rows than acknowledgements is a retried key that booked twice.
  const confirmed = holds.holds.flatMap((h) => (h.appointmentId ? [h.appointmentId] : []));
  const total = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM appointments WHERE store_id = $1 AND NOT (id = ANY($2::uuid[]))',
    [store, confirmed],
  );
  const duplicates = total.rows[0].n - present.rowCount;
  const retried = storm.creates.filter((c) => c.retried);
  p.figure('creates retried with their Idempotency-Key / duplicates', `${retried.length} / ${duplicates}`);
  p.check(duplicates === 0, 'appointments beyond those acknowledged (a retried key booked twice)', String(duplicates));
  // A retry of an acknowledged create replays its first answer, on the new primary too.
  let replayed = 0;
  const sample = retried.concat(storm.creates.slice(0, 20));
  await pool(sample, 6, async (c) => {
    const r = await http(servers[0].baseUrl, 'POST', '/api/v1/bookings/appointments', {
      token,
      body: c.body,
      idempotencyKey: c.key,
    });
    if (r.status === 200 && isDeepStrictEqual(r.body, c.answer.body)) replayed++;
  });
  p.figure('retries replaying the first answer', `${replayed} of ${sample.length}`);
  if (scenario !== 'async')
    p.check(
      replayed === sample.length,
      'a retry with its key did not replay the first answer',
      `${replayed} of ${sample.length}`,
    );

  await checkFeed(p, scenario, db, store, feed);
  const found = new Set(present.rows.map((r) => r.id));
  return new Set(ids.filter((id) => !found.has(id)));
}

/** The background consumers (webhook dispatcher, message planner) passed every event on the new primary. */
/** How long the feed may take to serve every event the primary holds (it waits behind any older transaction still running). */
const FEED_PATIENCE_MS = 30_000;

/**
 * The feed read across the event, against the events the primary holds. The truth is read first,
 * then the feed catches up until it has served all of it or FEED_PATIENCE_MS passes. An event not
 * served is a gap when its position is behind the feed's cursor (the feed passed over it, and never
 * will serve it); one ahead of the cursor is waiting behind the feed's horizon (an older transaction
 * still running), which is lag: reported, and a failure only when it outlasts the patience.
 */
async function checkFeed(p: ProofRun, scenario: Scenario, db: Queryable, store: string, feed: FeedReader) {
  const truth = (
    await db.query<{ id: string; txid: string; seq: string }>(
      // Ordered by the columns (xid8, bigint), not by the text aliases.
      'SELECT e.id, e.txid::text AS txid, e.seq::text AS seq FROM events e WHERE e.store_id = $1 ORDER BY e.txid, e.seq',
      [store],
    )
  ).rows;
  const t0 = Date.now();
  let holder: string | null = null;
  for (;;) {
    const caught = await feed.catchUp();
    const seen = new Set(feed.ids);
    if ((caught && truth.every((e) => seen.has(e.id))) || Date.now() - t0 > FEED_PATIENCE_MS) break;
    if (caught && !holder) holder = await oldestTransaction(db);
    await sleep(500);
  }
  const waited = Date.now() - t0;
  const later = new Set(
    (await db.query<{ id: string }>('SELECT id FROM events WHERE store_id = $1', [store])).rows.map((r) => r.id),
  );
  const seen = new Set<string>();
  let repeats = 0;
  for (const id of feed.ids) {
    if (seen.has(id)) repeats++;
    seen.add(id);
  }
  const at = parseFeedCursor(feed.cursor);
  const passed = (e: { txid: string; seq: string }) =>
    BigInt(e.txid) < BigInt(at.txid) || (e.txid === at.txid && BigInt(e.seq) <= BigInt(at.seq));
  const missing = truth.filter((e) => !seen.has(e.id));
  const gaps = missing.filter(passed);
  const phantoms = feed.ids.filter((id) => !later.has(id)).length;
  const truthIds = truth.map((e) => e.id);
  const inOrder = isDeepStrictEqual(
    feed.ids.filter((id) => truthIds.includes(id)),
    truthIds.filter((id) => seen.has(id)),
  );
  p.figure(
    'events feed: read / on the primary / gaps (passed over) / not served in time / repeats / read but gone; s to serve them all',
    `${feed.ids.length} / ${truth.length} / ${gaps.length} / ${missing.length - gaps.length} / ${repeats} / ${phantoms}; ${fmt(waited)}`,
  );
  if (holder) p.note(`the feed waited behind the oldest running transaction: ${holder}`);
  if (gaps.length)
    p.note(
      `events the feed passed over: ${gaps
        .slice(0, 3)
        .map((e) => `${e.id} at ${e.txid}.${e.seq}`)
        .join(', ')}; its cursor ${feed.cursor}`,
    );
  // Under asynchronous replication the feed served what was then lost, and its cursor (from the
  // old primary's transaction ids) can pass over the new primary's first events: recorded, not checked.
  if (scenario === 'async') return;
  p.check(gaps.length === 0, 'the events feed skipped events across the event', String(gaps.length));
  p.check(
    missing.length === gaps.length,
    `the events feed had not served every event ${FEED_PATIENCE_MS / 1000} s after the storm`,
    String(missing.length - gaps.length),
  );
  p.check(repeats === 0, 'the events feed repeated events across the event', String(repeats));
  p.check(inOrder, 'the events feed is out of order across the event');
  p.check(phantoms === 0, 'the feed served events the new primary does not have', String(phantoms));
}

/** The oldest transaction running on the primary: what holds the feed's horizon back. */
async function oldestTransaction(db: Queryable): Promise<string | null> {
  const r = await db.query<{ what: string }>(
    `SELECT format('pid %s, %s, waiting on %s, %s s old: %s', pid, state, coalesce(wait_event_type || ':' || wait_event, 'nothing'),
                   round(extract(epoch FROM now() - xact_start)::numeric, 1), left(query, 80)) AS what
       FROM pg_stat_activity WHERE backend_xid IS NOT NULL ORDER BY xact_start LIMIT 1`,
  );
  return r.rows[0]?.what ?? null;
}

export async function checkBackgroundResumed(p: ProofRun, db: Queryable, servers: ServerProcess[]) {
  const t0 = Date.now();
  const behind = async () =>
    (
      await db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM webhook_dispatch_cursor c WHERE EXISTS (SELECT 1 FROM events e WHERE (e.txid, e.seq) > (c.txid, c.seq)))
            + (SELECT count(*) FROM message_planner_cursor c WHERE c.name = 'messages'
                 AND EXISTS (SELECT 1 FROM events e WHERE (e.txid, e.seq) > (c.txid, c.seq) AND e.type = ANY($1::text[]))) AS n`,
        // The planner reads only the types it plans from (holds are not among them) and moves its
        // cursor to the last of those, so a hold event at the feed's end is not work left undone.
        [PLANNED_TYPES],
      )
    ).rows[0].n;
  let n = await behind();
  while (n > 0 && Date.now() - t0 < 30_000) {
    await sleep(250);
    n = await behind();
  }
  p.figure(
    'seconds for the webhook dispatcher and message planner to pass every event',
    n === 0 ? fmt(Date.now() - t0) : 'not within 30 s',
  );
  if (p.check(n === 0, 'the background work did not resume on the new primary')) return;
  // Where each consumer stopped, and what it stopped at.
  const at = await db.query<{ who: string; left: number; first: string | null }>(
    `SELECT who, (SELECT count(*)::int FROM events e WHERE (e.txid, e.seq) > (c.txid, c.seq)) AS left,
            (SELECT e.type || ' ' || e.txid || '/' || e.seq FROM events e WHERE (e.txid, e.seq) > (c.txid, c.seq) ORDER BY e.txid, e.seq LIMIT 1) AS first
       FROM (SELECT 'webhooks' AS who, txid, seq FROM webhook_dispatch_cursor
             UNION ALL SELECT 'messages', txid, seq FROM message_planner_cursor WHERE name = 'messages') c`,
  );
  for (const r of at.rows) p.note(`${r.who}: ${r.left} events after its cursor, the first ${r.first}`);
  for (const s of servers) p.note(`${s.name} said last: ${s.output.slice(-4).join(' | ').slice(0, 1500)}`);
}

export interface PoolMetrics {
  errors: Record<string, number>;
  dropped: number;
  opened: number;
}

/** server1's /metrics for its primary pool: unavailable errors by reason, connections dropped and opened. */
export async function poolMetrics(p: ProofRun, server: ServerProcess): Promise<PoolMetrics | null> {
  const r = await http(server.baseUrl, 'GET', '/metrics', { token: METRICS_TOKEN });
  if (!p.check(r.status === 200, '/metrics did not answer', String(r.status))) return null;
  const lines = String(r.body)
    .split('\n')
    .filter((l) => l.includes('pool="primary"'));
  const sum = (name: string) =>
    lines.filter((l) => l.startsWith(`${name}{`)).reduce((n, l) => n + Number(l.split(' ').pop()), 0);
  const errors: Record<string, number> = {};
  for (const l of lines.filter((x) => x.startsWith('bbo_db_unavailable_errors_total{'))) {
    const reason = /reason="([^"]+)"/.exec(l)?.[1] ?? '?';
    errors[reason] = (errors[reason] ?? 0) + Number(l.split(' ').pop());
  }
  return { errors, dropped: sum('bbo_db_connections_dropped_total'), opened: sum('bbo_db_connections_opened_total') };
}

/** /metrics shows the database errors and the reconnects of the bad day: what changed on server1 across it. */
export function checkMetrics(p: ProofRun, scenario: Scenario, before: PoolMetrics | null, after: PoolMetrics | null) {
  if (!before || !after) return;
  const errors: Record<string, number> = {};
  for (const [reason, n] of Object.entries(after.errors))
    if (n - (before.errors[reason] ?? 0) > 0) errors[reason] = n - (before.errors[reason] ?? 0);
  const total = Object.values(errors).reduce((a, b) => a + b, 0);
  const opened = after.opened - before.opened;
  p.figure(
    '/metrics of server1 across the event (primary pool): unavailable errors by reason / connections dropped / opened',
    `${JSON.stringify(errors)} / ${after.dropped - before.dropped} / ${opened}`,
  );
  if (scenario === 'sync' || scenario === 'haproxy-restart') {
    p.check(
      total > 0 && opened > 0,
      '/metrics does not show the database errors and the reconnects',
      JSON.stringify({ errors, opened }),
    );
  }
}
