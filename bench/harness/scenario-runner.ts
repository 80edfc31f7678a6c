// Runs one scenario: an availability probe, an HTTP warm-up and measured phase (with the server's
// RSS sampled), then the same requests issued straight to the database at the same concurrency
// (the limit), the statements one request sends, and for reads their EXPLAIN (ANALYZE, BUFFERS).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../../src/platform/db/port.ts';
import { contextFor, outcomeOf, recording } from './direct.ts';
import { explainAll, slug } from './explain.ts';
import { clientKey, directLoad, httpLoad, type WireRequest } from './load.ts';
import { openLoop } from './open-loop.ts';
import type { ScenarioReport } from './report.ts';
import type { Child, RssSampler } from './server.ts';
import { machineCpu, type TreeCpu } from './tree-memory.ts';
import { urlOf, type Call, type Env, type Scenario } from '../scenarios/common.ts';
import {
  checkInComplete,
  createAppointment,
  rescheduleAppointment,
  settleAppointment,
} from '../scenarios/appointments.ts';
import {
  appointmentSearch,
  customerSearch,
  diaryWeek,
  journeyPage,
  queueList,
  rosterBySpend,
} from '../scenarios/reads.ts';
import { preferenceUpsert } from '../scenarios/preferences.ts';
import {
  availabilityMonth,
  availabilityQuarter,
  availabilityWhileChanging,
  holdAndConfirm,
} from '../scenarios/online.ts';
import { bookFullClass, promoteFromWaitlist } from '../scenarios/classes.ts';
export const ALL_SCENARIOS: (() => Scenario)[] = [
  createAppointment,
  rescheduleAppointment,
  checkInComplete,
  settleAppointment,
  diaryWeek,
  appointmentSearch,
  queueList,
  rosterBySpend,
  customerSearch,
  journeyPage,
  // Hold + confirm before the searches: the 90-day search's steady phase at 50/s overloads the service
  // (its pool waits time out) and a write measured right after it read at a third of its rate.
  preferenceUpsert,
  holdAndConfirm,
  availabilityMonth,
  availabilityQuarter,
  availabilityWhileChanging,
  // Classes (issue 44): beside the create, a booking into a full class and a promotion.
  bookFullClass,
  promoteFromWaitlist,
];

export interface RunOptions {
  duration: number;
  warmup: number;
  connections: number;
  limit: boolean;
  explain: boolean;
  /** Open-loop rates after the closed-loop phase: fractions (< 1) of its req/s, or fixed req/s (>= 1). */
  steady: number[];
}

interface Ctx {
  server: Child;
  rss: RssSampler;
  /** The bench's own pool on the same database; null on the embedded engine (the server owns it). */
  db: Database | null;
  env: Env;
  opts: RunOptions;
  resultsDir: string;
  tag: string;
  /** The service's CPU so far (its process tree); when given, the closed loop reports CPU per request. */
  cpu?: () => TreeCpu;
}

const runTag = `bench-${Date.now().toString(36)}`;

export async function runScenario(s: Scenario, c: Ctx): Promise<ScenarioReport> {
  const report: ScenarioReport = { name: s.name, kind: s.kind, available: true };
  const expected = new Set(s.expected ?? []);
  const isExpected = (o: string) => expected.has(o);
  let i = 0; // one counter across every phase, so fresh slots and Idempotency-Keys never repeat
  const keyOf = (n: number) => clientKey(`${runTag}-${c.tag === 'base' ? '' : `${c.tag}-`}${slug(s.name)}-${n}`);
  const toWire = (call: Call, key: string): WireRequest => {
    const token =
      call.actor.kind === 'merchant'
        ? c.env.mint.get('m', call.actor.storeId)
        : c.env.mint.get('c', (call.actor as any).customerId);
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (call.body) headers['content-type'] = 'application/json';
    // Keys are unique per phase set: a scenario run again under another tag (the event-cost phases) never replays.
    if (call.idempotent) headers['idempotency-key'] = key;
    const w: WireRequest = {
      method: call.method,
      path: urlOf(call),
      headers,
      body: call.body ? JSON.stringify(call.body) : undefined,
    };
    if (call.then)
      w.then = (status, body) => (status === 200 ? toWire(call.then!(JSON.parse(body)), `${key}-then`) : null);
    return w;
  };
  const wire = (n: number): WireRequest => toWire(s.call(n), keyOf(n));
  const connections = s.connections ?? c.opts.connections;
  const prepare = async () => {
    if (c.db) await s.prepare?.(c.env);
  };

  await prepare();
  const probe = wire(i++);
  const res = await fetch(c.server.url + probe.path, {
    method: probe.method,
    headers: probe.headers,
    body: probe.body,
  });
  const probeBody = await res.text();
  if (res.status === 404 && probeBody.includes('ROUTE_NOT_FOUND'))
    return { ...report, available: false, note: 'route not found' };
  if (res.status >= 500) report.note = `probe answered ${res.status}: ${probeBody.slice(0, 120)}`;

  const chained = probe.then !== undefined;
  // A probe pair's follow-up too, so a chained scenario's probe is the whole pair.
  if (probe.then && res.status === 200) {
    const next = probe.then(res.status, probeBody);
    if (next)
      await fetch(c.server.url + next.path, { method: next.method, headers: next.headers, body: next.body }).then((r) =>
        r.text(),
      );
  }

  const load = { connections, make: () => wire(i++), isExpected, errorCodes: expected.size > 0, chained };
  await prepare();
  await httpLoad(c.server.url, { ...load, duration: c.opts.warmup });
  await prepare();
  const loadavg = os.loadavg()[0];
  c.rss.reset();
  const cpuBefore = c.cpu?.();
  const machineBefore = cpuBefore && machineCpu();
  const http = await httpLoad(c.server.url, { ...load, duration: c.opts.duration });
  report.http = { ...http, peakRssMb: c.rss.peakMb() };
  if (cpuBefore && machineBefore && http.requests > 0) {
    // What a request costs the service (node, and the database when it is a child), the load generator apart.
    // Where the rest of the machine went: the bench itself (the load generator), everything else
    // that was busy (the kernel's own threads, other processes), idle, and stolen by the hypervisor.
    const after = c.cpu!();
    const machine = machineCpu();
    const per = (ms: number) => Math.round((ms / http.requests) * 1000) / 1000;
    const node = after.nodeMs - cpuBefore.nodeMs;
    const database = after.otherMs - cpuBefore.otherMs;
    const bench = machine.benchMs - machineBefore.benchMs;
    report.http.cpuMsPerRequest = {
      node: per(node),
      database: per(database),
      nodeKernel: per(after.nodeKernelMs - cpuBefore.nodeKernelMs),
      databaseKernel: per(after.otherKernelMs - cpuBefore.otherKernelMs),
      loadGenerator: per(bench),
      other: per(Math.max(0, machine.busyMs - machineBefore.busyMs - node - database - bench)),
      idle: per(machine.idleMs - machineBefore.idleMs),
      steal: per(machine.stealMs - machineBefore.stealMs),
    };
  }
  report.loadavg = [loadavg, os.loadavg()[0]];
  report.connections = connections;

  // Latency at a steady rate: evenly spaced arrivals at each rate, from the scheduled send time.
  report.steady = [];
  // The open loop sends one request per arrival: a chained scenario (hold, then confirm) has no steady-rate phases.
  for (const r of chained ? [] : c.opts.steady) {
    const rate = r < 1 ? Math.max(1, Math.round(http.rps * r)) : r;
    // A fixed rate the scenario cannot serve at all (above 90% of its closed-loop maximum) measures
    // only a queue growing for the whole phase, and the memory that queue takes: it is reported as
    // skipped rather than run.
    if (r >= 1 && rate > http.rps * 0.9) {
      (report.steadySkipped ??= []).push({ rate, label: `${r}/s`, maxRps: http.rps });
      continue;
    }
    await prepare();
    const res = await openLoop(c.server.url, {
      rate,
      duration: c.opts.duration,
      make: () => wire(i++),
      isExpected,
      errorCodes: expected.size > 0,
    });
    report.steady.push({ ...res, label: r < 1 ? `${Math.round(r * 100)}% of max` : `${r}/s` });
  }

  if (!c.db) return report;
  let fn;
  try {
    fn = await s.service();
  } catch (err) {
    report.note = `service not importable: ${(err as Error).message.slice(0, 100)}`;
    return report;
  }
  const db = c.db;
  const run = (database: Database) => async (n: number) => {
    const call = s.call(n);
    const ctx = contextFor(database, {
      actor: call.actor,
      method: call.method,
      url: urlOf(call),
      body: call.body,
      idempotencyKey: call.idempotent
        ? clientKey(`${runTag}-direct-${c.tag === 'base' ? '' : `${c.tag}-`}${slug(s.name)}-${n}`)
        : undefined,
    });
    return fn(ctx, call);
  };

  if (c.opts.limit) {
    const direct = { concurrency: connections, run: () => run(db)(i++), outcomeOf, isExpected };
    await prepare();
    await directLoad({ ...direct, duration: c.opts.warmup });
    await prepare();
    report.limit = await directLoad({ ...direct, duration: c.opts.duration });
    report.ratio = Math.round((http.rps / report.limit.rps) * 100) / 100;
  }

  // Statements per request, and the plans of a read's statements.
  const rec = recording(db);
  await prepare();
  const counts: number[] = [];
  let sample: ReturnType<typeof rec.take> = [];
  for (let k = 0; k < 3; k++) {
    try {
      await run(rec.db)(i++);
    } catch {
      // an expected refusal still sent its statements
    }
    sample = rec.take();
    counts.push(
      sample.filter((x) => x.sql !== 'BEGIN' && x.sql !== 'COMMIT').length +
        (sample.some((x) => x.sql === 'BEGIN') ? 2 : 0),
    );
  }
  report.statementsPerRequest = Math.round((counts.reduce((a, b) => a + b, 0) / counts.length) * 10) / 10;
  // The round trips of one request, in order: the evidence for "fewer round trips" findings.
  const trips = sample.map(
    (x, n) => `${String(n + 1).padStart(2)}. ${x.sql.replace(/\s+/g, ' ').trim().slice(0, 150)}`,
  );
  fs.mkdirSync(c.resultsDir, { recursive: true });
  fs.writeFileSync(
    path.join(c.resultsDir, `statements-${slug(s.name)}${c.tag === 'base' ? '' : `-${c.tag}`}.txt`),
    trips.join('\n') + '\n',
  );
  if (s.kind === 'read' && c.opts.explain) {
    const file = path.join(c.resultsDir, `explain-${slug(s.name)}${c.tag === 'base' ? '' : `-${c.tag}`}.txt`);
    report.explainMainMs = (await explainAll(db, sample, file, `${s.name} (${c.tag})`)).mainMs;
  }
  return report;
}
