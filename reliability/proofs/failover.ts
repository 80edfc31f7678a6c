// The failover drill: the database machine dies mid-storm (docs/decisions/failover.md). Three
// server processes know only HAProxy (writes 5470, reads 5471) in front of two Patroni nodes in
// synchronous mode. Mid-storm of creates and moves, the primary's PostgreSQL and its Patroni are
// killed with SIGKILL. Checked afterwards by SQL on the new primary: every create answered 2xx is
// there (0 lost), no two bookings overlap, no retried key booked twice, the events feed read across
// the kill has no gap and no repeat, and the background consumers caught up on the new primary.
// Timed: kill to the first successful write. Then the old node rejoins as a replica (pg_rewind) and a
// planned switchover back answers nothing but 2xx and 503 with Retry-After.
// Other scenarios (scripts/reliability-failover.ts --scenario=...) run the same storm around another
// bad day; they record their figures and check the same invariants, except that `async` only counts
// what it lost.
import { isDeepStrictEqual } from 'node:util';
import { http, pool } from '../client.ts';
import { createDatabase, urlFor } from '../db.ts';
import { SERVER_START_MS, sleep } from '../env.ts';
import { FeedReader, Storm } from '../failover-storm.ts';
import { checkHolds, HoldStorm, prepareHoldShop } from '../failover-holds.ts';
import type { ProofRun } from '../proof.ts';
import type { Queryable } from '../../src/platform/db/port.ts';
import { PLANNED_TYPES } from '../../src/notifications/messages/planner.ts';
import { ServerProcess } from '../server-process.ts';
import { insertStore, insertUnits, merchantToken } from '../seed.ts';
import * as cluster from '../patroni-cluster.ts';
import * as ops from '../patroni-ops.ts';
import { disrupt, prepare, type Scenario } from './failover-scenarios.ts';

const CLIENTS = 12;
/** Customers at checkout beside the staff's creates and moves: two groups of three racing for each start. */
const HOLD_CLIENTS = 6;
/** How far into the storm the bad day comes (FAILOVER_KILL_AFTER_MS, to choose another moment). */
const KILL_AFTER_MS = Number(process.env.FAILOVER_KILL_AFTER_MS ?? 2_500);
const METRICS_TOKEN = 'failover-drill-metrics-token-0123';
/** The target from the issue: kill to the first acknowledged write. */
const TARGET_S = 15;
/** A 503's bound: the adapter's read timeout (15 s) and a second for the host. */
const UNAVAILABLE_BOUND_MS = 16_000;

const fmt = (ms: number) => (ms / 1000).toFixed(1);

/** The three server processes' ports (the drill's own range, 5461-5480). */
const SERVER_PORTS = [5473, 5474, 5475];

/**
 * standby: resolves once node2 streams as the synchronous standby (clusterUp with deferStandby):
 * the database and the processes are made while it copies.
 */
export async function failoverDrill(p: ProofRun, scenario: Scenario, standby: Promise<void> = Promise.resolve()): Promise<void> {
  const t0 = Date.now();
  const phases: string[] = [];
  const phase = (name: string) => phases.push(`${name} ${fmt(Date.now() - t0)}`);
  const database = await createDatabase(cluster.WRITE_URL, 'failover');
  p.databases.push(database);
  const env = {
    DATABASE_READ_URL: urlFor(cluster.READ_URL, database.name),
    METRICS_TOKEN,
    RATE_LIMIT_GLOBAL_PER_MIN: '10000000',
    // Every hold comes from 127.0.0.1, and the storm leaves a third of its holds live.
    HOLDS_PER_ADDRESS: '100000',
    HOLDS_PER_CUSTOMER: '100000',
  };
  // Started side by side; on a crowded machine three processes loading the service at once take a
  // while, so they get longer than a single start would (SERVER_START_MS, or 4 minutes).
  const servers: ServerProcess[] = [];
  for (const [i, port] of SERVER_PORTS.entries()) servers.push(new ServerProcess({ databaseUrl: database.url, env, name: `server${i + 1}`, port }));
  p.servers.push(...servers);
  await Promise.all(servers.map((s) => s.spawn(Math.max(SERVER_START_MS, 240_000))));
  phase('servers ready');
  // The checks wait out an outage rather than fail on one (a kill may come while they run).
  const db = cluster.patient(database.db);
  const store = await insertStore(db, 'Failover Salon');
  const units = await insertUnits(db, store, CLIENTS);
  const token = await merchantToken(store);
  const unexpected = (what: string) => p.fail('an answer other than 2xx or 503 with Retry-After', what);

  const shop = await prepareHoldShop(db, store, units.slice(0, 2), HOLD_CLIENTS, token, servers[0]);
  await standby;
  await prepare(scenario);
  phase('standby ready');

  const storm = new Storm(servers, token, store, units, unexpected);
  const holds = new HoldStorm(storm, store, shop);
  const feed = new FeedReader(servers, token, store, unexpected);
  storm.start(CLIENTS);
  holds.start(HOLD_CLIENTS);
  feed.start();
  await sleep(KILL_AFTER_MS);
  const before = storm.creates.length;
  holds.markEvent();

  // The bad day, mid-storm.
  phase('event');
  const event = await disrupt(scenario);
  // Timed from the moment the kill has been done: a write sent before it could still have committed
  // on the old primary, one sent after can only succeed on a new one.
  const killedAt = Date.now();
  storm.watchFirstWrite(killedAt);
  p.note(`${scenario}: ${event.what} at ${before} acknowledged creates`);
  // Writes resume (or the scenario's own wait ends), then a few more seconds of storm on the new primary.
  const deadline = Date.now() + event.waitMs;
  while (storm.firstWriteAfter!.at === null && Date.now() < deadline) await sleep(100);
  const firstWrite = storm.firstWriteAfter!.at;
  phase('writes resumed');
  await event.recover?.();
  await cluster.waitWritable(60_000);
  await sleep(3_000);
  await Promise.all([storm.stop(), holds.stop()]);
  // Holds lapse on the new primary, and their starts are taken again.
  await holds.lapse(db);
  await feed.stop();
  phase('storm stopped');
  const stormTally = storm.tally;
  // The lost machine comes back while the checks run: Patroni rewinds it onto the new timeline
  // (pg_rewind) and it follows as the synchronous standby, so the checks' reads may meet it as the
  // replica. Its Patroni is started again unless it still runs (a standby that was only slow).
  const old = event.killed;
  let rejoined: Promise<number> | null = null;
  if (scenario === 'sync' && old) {
    const r0 = Date.now();
    if ((await cluster.rest(old, '/patroni')).status === 0) await cluster.startNode(old);
    rejoined = cluster.waitReplica(old, 90_000).then(() => Date.now() - r0);
    rejoined.catch(() => {});
  }

  p.figure('scenario', scenario);
  p.figure('acknowledged creates (before the kill / in all)', `${before} / ${storm.creates.length}`);
  p.figure('seconds from the kill to the first successful write', firstWrite === null ? `none within ${fmt(event.waitMs)} s` : fmt(firstWrite - killedAt));
  p.figure('503s answered (all with Retry-After, in the envelope)', `${stormTally.unavailable} (slowest ${stormTally.slowest503Ms} ms)`);
  p.figure('requests with no HTTP answer / 409 in progress', `${stormTally.transport} ${JSON.stringify(stormTally.transportErrors)} / ${stormTally.inProgress}`);
  p.figure('longest time without a successful write, after the event (s)', fmt(storm.longestGapAfter(killedAt)));
  // Nothing hangs and nothing is cut without an answer: every request while there is no way to the
  // primary answers 503 within the adapter's read timeout (15 s), with a second's slack for a loaded host.
  if (scenario === 'sync' || scenario === 'haproxy-restart') {
    p.check(stormTally.transport === 0, 'a request got no HTTP answer within the client\'s bound', JSON.stringify(stormTally.transportErrors));
    p.check(stormTally.slowest503Ms < UNAVAILABLE_BOUND_MS, `a 503 took ${UNAVAILABLE_BOUND_MS} ms or more`, String(stormTally.slowest503Ms));
  }
  if (scenario === 'sync' && !event.untimed && p.check(firstWrite !== null, 'no write succeeded after the kill')) {
    p.check((firstWrite! - killedAt) / 1000 < TARGET_S, `the first write after the kill took ${TARGET_S} s or more`, fmt(firstWrite! - killedAt));
  }

  // Checked by SQL on the primary now (through HAProxy, which only sends to the primary).
  const leaderNow = await cluster.leader();
  p.figure('primary after the event', leaderNow ?? 'none');
  const lost = await checkInvariants(p, scenario, db, store, storm, holds, feed, servers, token);
  if (event.stalledAt) {
    // What asynchronous replication loses: what the primary acknowledged while its WAL could not leave it.
    const window = storm.creates.filter((c) => c.at >= event.stalledAt! && c.at <= killedAt);
    const lostInWindow = window.filter((c) => lost.has(c.id)).length;
    p.figure(
      'creates acknowledged while replication was stalled (stall to kill, s) / of them lost / lost outside it',
      `${window.length} (${fmt(killedAt - event.stalledAt)}) / ${lostInWindow} / ${lost.size - lostInWindow}`,
    );
  }
  await checkHolds(p, db, store, holds, scenario !== 'async');
  await checkBackgroundResumed(p, db, servers);
  await checkMetrics(p, servers);
  phase('checked');
  p.figure('phases (s from the cluster\'s first write)', phases.join(', '));

  if (!rejoined || !old) return;
  p.figure(`seconds for ${old} to rejoin as the synchronous standby (pg_rewind), from its restart`, fmt(await rejoined));

  // A planned switchover back under a lighter storm: nothing but 2xx and 503 with Retry-After.
  const planned = new Storm(servers, token, store, units, (what) => p.fail('a switchover answered other than 2xx or 503 with Retry-After', what), 20_000);
  planned.start(4);
  await sleep(1_000);
  const s0 = Date.now();
  planned.watchFirstWrite(s0);
  await ops.switchover(other(old), old);
  await cluster.waitWritable(30_000);
  while (planned.firstWriteAfter!.at === null && Date.now() - s0 < 30_000) await sleep(100);
  await sleep(1_500);
  await planned.stop();
  const t = planned.tally;
  p.figure('switchover back: 2xx / 503 with Retry-After / no answer / other', `${t.ok} / ${t.unavailable} / ${t.transport} / ${t.other + t.badUnavailable}`);
  p.check(t.transport === 0, 'a request during the switchover got no HTTP answer', JSON.stringify(t.transportErrors));
  p.figure('switchover back: seconds to the first write after it began', planned.firstWriteAfter!.at ? fmt(planned.firstWriteAfter!.at - s0) : 'none');
  p.check((await cluster.leader()) === old, 'the switchover did not move the primary back', String(await cluster.leader()));
  const rows = await db.query<{ id: string }>('SELECT id FROM appointments WHERE id = ANY($1::uuid[])', [planned.creates.map((c) => c.id)]);
  p.check(rows.rowCount === planned.creates.length, 'a create acknowledged during the switchover is missing', `${rows.rowCount} of ${planned.creates.length}`);
}

const other = cluster.other;

/** Returns the acknowledged creates the new primary does not have. */
async function checkInvariants(
  p: ProofRun, scenario: Scenario, db: Queryable, store: string, storm: Storm, holds: HoldStorm, feed: FeedReader, servers: ServerProcess[], token: string,
): Promise<Set<string>> {
  const ids = storm.creates.map((c) => c.id);
  const present = await db.query<{ id: string; starts_at: string }>('SELECT id, starts_at FROM appointments WHERE id = ANY($1::uuid[])', [ids]);
  const lost = ids.length - present.rowCount;
  p.figure('lost (acknowledged creates missing)', `${lost} of ${ids.length}`);
  // Asynchronous replication may lose what the old primary acknowledged but had not sent: that is
  // the figure this scenario exists to record, not a failure of the drill.
  if (scenario !== 'async') p.check(lost === 0, 'an acknowledged create is missing on the new primary', `${lost} of ${ids.length}`);
  const byId = new Map(present.rows.map((r) => [r.id, r]));
  let movedLost = 0;
  for (const [id, to] of storm.moved) if (byId.has(id) && byId.get(id)!.starts_at !== to.starts_at) movedLost++;
  p.figure('acknowledged moves not in place', movedLost);
  if (scenario !== 'async') p.check(movedLost === 0, 'an acknowledged move is not in place on the new primary', String(movedLost));

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
  const total = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM appointments WHERE store_id = $1 AND NOT (id = ANY($2::uuid[]))', [store, confirmed]);
  const duplicates = total.rows[0].n - present.rowCount;
  const retried = storm.creates.filter((c) => c.retried);
  p.figure('creates retried with their Idempotency-Key / duplicates', `${retried.length} / ${duplicates}`);
  p.check(duplicates === 0, 'appointments beyond those acknowledged (a retried key booked twice)', String(duplicates));
  // A retry of an acknowledged create replays its first answer, on the new primary too.
  let replayed = 0;
  const sample = retried.concat(storm.creates.slice(0, 20));
  await pool(sample, 6, async (c) => {
    const r = await http(servers[0].baseUrl, 'POST', '/api/v1/bookings/appointments', { token, body: c.body, idempotencyKey: c.key });
    if (r.status === 200 && isDeepStrictEqual(r.body, c.answer.body)) replayed++;
  });
  p.figure('retries replaying the first answer', `${replayed} of ${sample.length}`);
  if (scenario !== 'async') p.check(replayed === sample.length, 'a retry with its key did not replay the first answer', `${replayed} of ${sample.length}`);

  // The feed read across the kill, compared with the events the new primary holds: the truth is read
  // first and the feed caught up after, so an event committed in between (a straggler, a background
  // step) counts as read, not as a gap; one the feed passed over is a gap whenever it was committed.
  const truth = (await db.query<{ id: string }>('SELECT id FROM events WHERE store_id = $1 ORDER BY txid, seq', [store])).rows.map((r) => r.id);
  for (let i = 0; i < 20 && !(await feed.catchUp()); i++) await sleep(500);
  const later = new Set((await db.query<{ id: string }>('SELECT id FROM events WHERE store_id = $1', [store])).rows.map((r) => r.id));
  const seen = new Set<string>();
  let repeats = 0;
  for (const id of feed.ids) {
    if (seen.has(id)) repeats++;
    seen.add(id);
  }
  const gaps = truth.filter((id) => !seen.has(id)).length;
  const phantoms = feed.ids.filter((id) => !later.has(id)).length;
  const inOrder = isDeepStrictEqual(feed.ids.filter((id) => truth.includes(id)), truth.filter((id) => seen.has(id)));
  p.figure('events feed: read / on the primary / gaps / repeats / read but gone', `${feed.ids.length} / ${truth.length} / ${gaps} / ${repeats} / ${phantoms}`);
  p.check(gaps === 0, 'the events feed skipped events across the failover', String(gaps));
  p.check(repeats === 0, 'the events feed repeated events across the failover', String(repeats));
  p.check(inOrder, 'the events feed is out of order across the failover');
  if (scenario !== 'async') p.check(phantoms === 0, 'the feed served events the new primary does not have', String(phantoms));
  if (gaps) p.note(`events the feed did not serve: ${truth.filter((id) => !seen.has(id)).slice(0, 3).join(', ')}`);
  const found = new Set(present.rows.map((r) => r.id));
  return new Set(ids.filter((id) => !found.has(id)));
}

/** The background consumers (webhook dispatcher, message planner) passed every event on the new primary. */
async function checkBackgroundResumed(p: ProofRun, db: Queryable, servers: ServerProcess[]) {
  const t0 = Date.now();
  const behind = async () =>
    (await db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM webhook_dispatch_cursor c WHERE EXISTS (SELECT 1 FROM events e WHERE (e.txid, e.seq) > (c.txid, c.seq)))
            + (SELECT count(*) FROM message_planner_cursor c WHERE c.name = 'messages'
                 AND EXISTS (SELECT 1 FROM events e WHERE (e.txid, e.seq) > (c.txid, c.seq) AND e.type = ANY($1::text[]))) AS n`,
      // The planner reads only the types it plans from (holds are not among them) and moves its
      // cursor to the last of those, so a hold event at the feed's end is not work left undone.
      [PLANNED_TYPES],
    )).rows[0].n;
  let n = await behind();
  while (n > 0 && Date.now() - t0 < 30_000) {
    await sleep(250);
    n = await behind();
  }
  p.figure('seconds for the webhook dispatcher and message planner to pass every event', n === 0 ? fmt(Date.now() - t0) : 'not within 30 s');
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

/** /metrics of one process shows the database errors and the reconnects of the failover. */
async function checkMetrics(p: ProofRun, servers: ServerProcess[]) {
  const r = await http(servers[0].baseUrl, 'GET', '/metrics', { token: METRICS_TOKEN });
  if (!p.check(r.status === 200, '/metrics did not answer', String(r.status))) return;
  const sum = (name: string) =>
    String(r.body)
      .split('\n')
      .filter((l) => l.startsWith(name + '{') && l.includes('pool="primary"'))
      .reduce((s, l) => s + Number(l.split(' ').pop()), 0);
  const errors = sum('bbo_db_unavailable_errors_total');
  const opened = sum('bbo_db_connections_opened_total');
  const dropped = sum('bbo_db_connections_dropped_total');
  p.figure('/metrics of server1 (primary pool): unavailable errors / connections dropped / opened', `${errors} / ${dropped} / ${opened}`);
}
