// Two phases of issue 28, each on a service started for it with the event consumers in process, as
// `npm start` ships (WORKER_ENABLED=true, the messages worker on, no SMTP: messages settle to the
// local mailbox, which is the same database work as a send minus the SMTP round trip):
//
//  - "availability while the desk books": the 31-day search on "Bench Online" (20 units), closed loop
//    at 8 connections, while a merchant books that store's free slots inside the searched month at an
//    evenly spaced 10/s. Each booking is a change the kept answers must see.
//  - "burst then steady": 10,000 creates in a closed loop (the create scenario's requests), then creates
//    at an evenly spaced 50/s for 20 s, timed from their scheduled send. The burst leaves the workers a
//    backlog (a confirmation and a reminder per booking, an event per booking for the dispatcher); the
//    steady phase measures what that backlog costs the front desk. The backlog left is reported too.
import http from 'node:http';
import path from 'node:path';
import type { Database } from '../../src/platform/db/port.ts';
import { clientKey, httpLoad, type LoadResult, type WireRequest } from './load.ts';
import { openLoop, type OpenLoopResult } from './open-loop.ts';
import { startChild } from './server.ts';
import { merchant, urlOf, type Call, type Env } from '../scenarios/common.ts';
import { createAppointment } from '../scenarios/appointments.ts';
import { availabilityMonth } from '../scenarios/online.ts';

export interface DeskPhasesReport {
  serverRoot: string;
  availabilityWhileBooking?: { search: LoadResult; bookings: OpenLoopResult; freeSlots: number } | { skipped: string };
  burstThenSteady?: {
    burst: { requests: number; seconds: number; rps: number; outcomes: Record<string, number> };
    steady: OpenLoopResult;
    backlogAfter: Backlog;
    backlogBefore: Backlog;
  };
}

interface Backlog {
  messagesPending: number;
  plannerBehindEvents: number;
  webhookEndpoints: number;
}

const runTag = `desk-${Date.now().toString(36)}`;

/** A request on the wire; its principal's token is minted already (the scenario's setup does it). */
function wireOf(env: Env, call: Call, key: string): WireRequest {
  const token =
    call.actor.kind === 'merchant'
      ? env.mint.get('m', call.actor.storeId)
      : env.mint.get('c', (call.actor as any).customerId);
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (call.body) headers['content-type'] = 'application/json';
  if (call.idempotent) headers['idempotency-key'] = key;
  return { method: call.method, path: urlOf(call), headers, body: call.body ? JSON.stringify(call.body) : undefined };
}

/** A closed loop of exactly `total` requests over `connections` keep-alive sockets. */
async function closedCount(baseUrl: string, connections: number, total: number, make: (i: number) => WireRequest) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const outcomes: Record<string, number> = {};
  let next = 0;
  const one = (req: WireRequest) =>
    new Promise<void>((resolve) => {
      const r = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.path,
          agent,
          headers: req.body ? { ...req.headers, 'content-length': Buffer.byteLength(req.body) } : req.headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            let key = String(res.statusCode);
            if ((res.statusCode ?? 0) >= 300) {
              try {
                key += ' ' + (JSON.parse(Buffer.concat(chunks).toString())?.error?.code ?? '');
              } catch {
                // status alone
              }
            }
            outcomes[key] = (outcomes[key] ?? 0) + 1;
            resolve();
          });
        },
      );
      r.on('error', (err) => {
        const key = `error ${(err as NodeJS.ErrnoException).code ?? err.message}`;
        outcomes[key] = (outcomes[key] ?? 0) + 1;
        resolve();
      });
      if (req.body) r.write(req.body);
      r.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < total) await one(make(next++));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { requests: total, seconds: Math.round(seconds * 10) / 10, rps: Math.round(total / seconds), outcomes };
}

async function backlog(db: Database): Promise<Backlog> {
  const res = await db.query<{ pending: string; behind: string; endpoints: string }>(
    `SELECT (SELECT count(*) FROM messages WHERE status = 'pending' AND due_at <= now()) AS pending,
            (SELECT count(*) FROM events e, message_planner_cursor c WHERE c.name = 'messages' AND (e.txid, e.seq) > (c.txid, c.seq)) AS behind,
            (SELECT count(*) FROM webhook_endpoints) AS endpoints`,
  );
  const r = res.rows[0];
  return {
    messagesPending: Number(r.pending),
    plannerBehindEvents: Number(r.behind),
    webhookEndpoints: Number(r.endpoints),
  };
}

/** Free 30-minute slots of "Bench Online" inside the next 31 days (no appointment, hold or time-off), shuffled. */
async function freeOnlineSlots(db: Database, storeId: string): Promise<{ unit_id: string; at: string }[]> {
  const res = await db.query<{ unit_id: string; at: string }>(
    `SELECT u.id AS unit_id, (day::date + make_interval(mins => m)) AT TIME ZONE s.timezone AS at
       FROM stores s JOIN units u ON u.store_id = s.id
       CROSS JOIN LATERAL generate_series((now() AT TIME ZONE s.timezone)::date + 1, (now() AT TIME ZONE s.timezone)::date + 30, interval '1 day') day
       JOIN unit_hours h ON h.unit_id = u.id AND h.weekday = extract(dow FROM day)
       CROSS JOIN LATERAL generate_series((extract(epoch FROM h.opens) / 60)::int, (extract(epoch FROM h.closes) / 60)::int - 30, 30) m
      WHERE s.id = $1
        AND NOT EXISTS (SELECT 1 FROM unit_occupancy o WHERE o.unit_id = u.id
                         AND o.block && tstzrange((day::date + make_interval(mins => m)) AT TIME ZONE s.timezone,
                                                  (day::date + make_interval(mins => m + 30)) AT TIME ZONE s.timezone))
      ORDER BY md5(u.id::text || m::text || day::text)`,
    [storeId],
  );
  return res.rows;
}

/**
 * Before the service starts: the consumers begin at the feed's end and no message is left due, so the
 * phases measure the backlog they make themselves, not the events earlier phases left (the API
 * scenarios run without the workers). Bench data only.
 */
async function startFromNow(db: Database): Promise<void> {
  const last = `(SELECT txid, seq FROM events ORDER BY txid DESC, seq DESC LIMIT 1)`;
  await db.query(
    `UPDATE message_planner_cursor m SET txid = l.txid, seq = l.seq FROM ${last} l WHERE m.name = 'messages'`,
  );
  await db.query(`UPDATE webhook_dispatch_cursor w SET txid = l.txid, seq = l.seq FROM ${last} l`);
  await db.query(
    `UPDATE messages SET status = 'withdrawn', reason = 'bench: before the phase', lease_until = NULL, lease_token = NULL WHERE status IN ('pending', 'sending') AND due_at <= now() + interval '1 day'`,
  );
}

export async function runDeskPhases(c: {
  env: Env;
  serverEnv: Record<string, string>;
  nodeArgs: string[];
  serverRoot: string;
  phases: { availability: boolean; burst: boolean };
  duration: number;
  warmup: number;
  burst?: number;
  steadySeconds?: number;
}): Promise<DeskPhasesReport> {
  const report: DeskPhasesReport = { serverRoot: c.serverRoot };
  const { env } = c;
  await startFromNow(env.db);
  const server = await startChild(
    path.join(c.serverRoot, 'src/server.ts'),
    { ...c.serverEnv, WORKER_ENABLED: 'true' },
    { nodeArgs: c.nodeArgs, readyPath: '/healthz' },
  );
  const bookedByDesk: string[] = [];
  try {
    if (c.phases.availability) {
      const online = env.fx.online;
      if (!online) report.availabilityWhileBooking = { skipped: 'no "Bench Online" store in this dataset' };
      else {
        const search = availabilityMonth();
        await search.setup(env);
        const slots = await freeOnlineSlots(env.db, online.id);
        const service = online.services[0];
        let s = 0;
        let k = 0;
        const desk = () => {
          const slot = slots[s++ % slots.length];
          const call: Call = {
            method: 'POST',
            route: '/api/v1/bookings/appointments',
            actor: merchant(online.id),
            idempotent: true,
            body: {
              store_id: online.id,
              unit_id: slot.unit_id,
              service_id: service,
              starts_at: slot.at,
              ends_at: new Date(new Date(slot.at).getTime() + 30 * 60_000).toISOString(),
              guest_name: `Bench Desk ${s}`,
              guest_email: `bench.desk${s}@example.org`,
            },
          };
          return call;
        };
        // Tokens first (minting is async; the loads build requests synchronously).
        await env.mint.merchant(online.id);
        const deskWire = (): WireRequest => {
          const call = desk();
          const token = env.mint.get('m', online.id);
          return {
            method: 'POST',
            path: call.route,
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/json',
              'idempotency-key': clientKey(`${runTag}-desk-${k++}`),
            },
            body: JSON.stringify(call.body),
          };
        };
        const pre = Array.from({ length: 64 }, (_, i) => wireOf(env, search.call(i), ''));
        const load = {
          connections: 8,
          make: (i: number) => pre[i % pre.length],
          isExpected: () => false,
          errorCodes: false,
        };
        await httpLoad(server.url, { ...load, duration: c.warmup });
        const [searchRes, bookings] = await Promise.all([
          httpLoad(server.url, { ...load, duration: c.duration }),
          openLoop(server.url, {
            rate: 10,
            duration: c.duration,
            make: deskWire,
            isExpected: (o) => o.startsWith('409 '),
            errorCodes: true,
          }),
        ]);
        bookedByDesk.push(online.id);
        report.availabilityWhileBooking = { search: searchRes, bookings, freeSlots: slots.length };
      }
    }
    if (c.phases.burst) {
      const create = createAppointment();
      await create.setup(env);
      await create.prepare!(env);
      const wires: WireRequest[] = [];
      const total = c.burst ?? 10_000;
      const steadyCount = 50 * (c.steadySeconds ?? 20);
      for (let i = 0; i < total + steadyCount + 10; i++)
        wires.push(wireOf(env, create.call(i), clientKey(`${runTag}-burst-${i}`)));
      const backlogBefore = await backlog(env.db);
      const burst = await closedCount(server.url, 32, total, (i) => wires[i]);
      let n = total;
      const steady = await openLoop(server.url, {
        rate: 50,
        duration: c.steadySeconds ?? 20,
        make: () => wires[n++],
        isExpected: (o) => o === '409 SLOT_TAKEN',
        errorCodes: true,
      });
      report.burstThenSteady = { burst, steady, backlogBefore, backlogAfter: await backlog(env.db) };
    }
  } finally {
    await server.stop();
    // The desk's bookings leave the online store's diary as generated.
    for (const id of bookedByDesk)
      await env.db.query(`DELETE FROM appointments WHERE store_id = $1 AND guest_name LIKE 'Bench Desk %'`, [id]);
  }
  return report;
}

export function describeDeskPhases(r: DeskPhasesReport): string {
  const lines: string[] = [];
  const a = r.availabilityWhileBooking;
  if (a && 'skipped' in a) lines.push(`availability while the desk books: skipped (${a.skipped})`);
  else if (a) {
    lines.push(
      `availability while the desk books (31 days, 20 units, 8 connections, workers in process): ${a.search.rps} req/s, p50 ${a.search.p50} ms, p99 ${a.search.p99} ms (target < 50), ${a.search.unexpected} errors; ` +
        `desk creates at 10/s: p50 ${a.bookings.p50} ms, p99 ${a.bookings.p99} ms, outcomes ${JSON.stringify(a.bookings.outcomes)} (${a.freeSlots} free slots found)`,
    );
  }
  const b = r.burstThenSteady;
  if (b) {
    lines.push(
      `burst then steady (workers in process): burst ${b.burst.requests} creates in ${b.burst.seconds} s (${b.burst.rps} req/s, ${JSON.stringify(b.burst.outcomes)}); ` +
        `then 50/s for ${Math.round(b.steady.requests / 50)} s: p50 ${b.steady.p50} ms, p99 ${b.steady.p99} ms (target < 10), p99.9 ${b.steady.p999} ms, max ${b.steady.max} ms, send lag p99 ${b.steady.sendLagP99} ms, ${b.steady.unexpected} errors; ` +
        `backlog before ${JSON.stringify(b.backlogBefore)}, after ${JSON.stringify(b.backlogAfter)}`,
    );
  }
  return lines.join('\n');
}
