// npm run bench [-- --duration 10 --quick --connections 32 --pool 16 --only diary,settle --growth-url URL
//                  --database-url URL --label name --profile --no-limit --server-node-args="FLAGS"
//                  --steady 0.5,50 --no-steady --no-ceiling --embedded-dir DIR --workers
//                  --server-root DIR --burst 10000 --no-desk]
// --only burst / --only desk run just the desk phases (harness/desk-phases.ts): "burst then steady" and
// "availability while the desk books"; --only page the booking page's first paint (page-paint.ts);
// --only lighthouse Lighthouse on the demo shop's booking page and the console (lighthouse.ts);
// --only import the CSV imports (rows/s, peak memory) and a year's report (import-report.ts, issue 45);
// --server-root runs the service from another checkout (a worktree of an earlier commit) against
// the same database, for before/after runs back to back.
// Starts the service as a child process, loads each scenario over HTTP with autocannon, then at
// steady rates (open loop), then issues the same work straight to the database at the same
// concurrency (the limit), and reports all of it beside the database's one-insert write ceiling.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { openPg } from '../src/platform/db/pg.adapter.ts';
import type { Database } from '../src/platform/db/port.ts';
import { num, parseArgs, str } from './lib/args.ts';
import { embeddedDir } from './lib/target.ts';
import { loadFixtures } from './harness/fixtures.ts';
import { TokenMint } from './harness/tokens.ts';
import { memoryOf, npmStartFlags, RssSampler, startChild, type Child } from './harness/server.ts';
import { httpLoad, type LoadResult } from './harness/load.ts';
import {
  growthTable,
  steadyTable,
  table,
  writeJson,
  type GrowthReport,
  type ScenarioReport,
} from './harness/report.ts';
import { measureWriteCeiling, type CeilingResult } from './harness/ceiling.ts';
import { openTarget } from './lib/target.ts';
import { ALL_SCENARIOS, runScenario, type RunOptions } from './harness/scenario-runner.ts';
import { measureEventCost, type EventCostReport } from './harness/event-cost.ts';
import { describeWebhookBench, runOnOwnDatabase, type WebhookBenchResult } from './webhooks.ts';
import { describeDeskPhases, runDeskPhases, type DeskPhasesReport } from './harness/desk-phases.ts';
import { describeMessagesBench, runMessagesOnOwnDatabase, type MessagesBenchResult } from './messages.ts';
import { reportPageWeight } from './harness/page-weight.ts';
import { describePagePaint, measurePagePaint } from './page-paint.ts';
import { describeLighthouse, measureLighthouse } from './lighthouse.ts';
import { describeImportReport, measureImportReport } from './import-report.ts';

const args = parseArgs();
const quick = args.quick === true;
const opts: RunOptions = {
  duration: num(args, 'duration', quick ? 3 : 10),
  warmup: num(args, 'warmup', quick ? 1 : 2),
  connections: num(args, 'connections', 32),
  limit: args['no-limit'] !== true,
  explain: args['no-explain'] !== true,
  // Open-loop phases: fractions of the closed-loop max (< 1) and fixed rates (>= 1), req/s.
  steady:
    args['no-steady'] === true
      ? []
      : (str(args, 'steady') ?? '0.5,50')
          .split(',')
          .map(Number)
          .filter((x) => x > 0),
};
const embeddedArg = str(args, 'embedded-dir');
const poolSize = num(args, 'pool', 16);
const only =
  str(args, 'only')
    ?.split(',')
    .map((s) => s.trim().toLowerCase()) ?? null;
const databaseUrl = str(args, 'database-url') ?? process.env.DATABASE_URL ?? null;
const growthUrl = str(args, 'growth-url');
const day = new Date().toISOString().slice(0, 10);
const label = str(args, 'label');
const resultsDir = path.resolve('bench/results', label ? `${day}-${label}` : day);
fs.mkdirSync(resultsDir, { recursive: true });

const secret = randomBytes(32).toString('hex');
const serverRoot = path.resolve(str(args, 'server-root') ?? '.');
const workersInProcess = args.workers === true;
const serverEnv = (url: string | null): Record<string, string> => ({
  ...(url ? { DATABASE_URL: url } : { DATABASE_URL: '' }),
  AUTH_SECRET: secret,
  LOG_LEVEL: 'warn',
  DB_POOL_SIZE: String(poolSize),
  // The limiter still runs on every request; its budgets are raised so it never refuses the load.
  RATE_LIMIT_GLOBAL_PER_MIN: '10000000',
  RATE_LIMIT_SEARCH_PER_MIN: '10000000',
  RATE_LIMIT_PREFERENCES_PER_MIN: '10000000',
  // One bench customer places many holds at once from one address: the caps on live holds are raised too.
  HOLDS_PER_CUSTOMER: '10000000',
  HOLDS_PER_ADDRESS: '10000000',
  // The API process alone, as a deployment with `npm run worker` beside it runs it: the event
  // consumers (webhook deliveries, customer messages) have their own phases below, and inside the
  // API's phases they would spend the same two cores planning a confirmation for every booking the
  // write phases make. --workers keeps them in the process, as a bare `npm start` does.
  WORKER_ENABLED: workersInProcess ? 'true' : 'false',
});
// The service runs with the flags `npm start` gives it, so the figures are the shipped process's;
// --server-node-args="--max-old-space-size=192 ..." replaces them (for the service only, not the load generator).
// Everything between `node` and the script, flags' arguments included (`--import ./preload.ts`).
const startFlags = npmStartFlags();
const nodeArgs = [
  ...(str(args, 'server-node-args')?.split(/\s+/).filter(Boolean) ?? startFlags),
  ...(args.profile === true ? ['--cpu-prof', `--cpu-prof-dir=${path.join(resultsDir, 'prof')}`] : []),
];

const engineLine = databaseUrl
  ? `engine: PostgreSQL server (${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}), service pool ${poolSize}`
  : `engine: the EMBEDDED PostgreSQL (${embeddedDir()}): DATABASE_URL is not set. The service owns it while it runs; the SQL-only limit is not measured.`;
console.log(engineLine);
console.log(
  `event consumers (webhook and messages workers): ${workersInProcess ? 'in the service process (--workers)' : 'not in the service process (WORKER_ENABLED=false); --workers puts them there'}`,
);
console.log(
  `load: ${opts.connections} connections, ${opts.duration} s per phase (+${opts.warmup} s warm-up), node ${process.version}, ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);

async function openDb(url: string | null): Promise<Database> {
  return url ? openPg({ connectionString: url, poolSize }) : openTarget(null);
}

async function measureCeiling(): Promise<number> {
  const bare = await startChild('bench/bare-server.ts', {}, { readyPath: '/bare' });
  try {
    const warm = {
      connections: opts.connections,
      make: () => ({ method: 'GET' as const, path: '/bare', headers: {} }),
      isExpected: () => false,
      errorCodes: false,
    };
    await httpLoad(bare.url, { ...warm, duration: opts.warmup });
    return (await httpLoad(bare.url, { ...warm, duration: opts.duration })).rps;
  } finally {
    await bare.stop();
  }
}

async function runAll(
  url: string | null,
  scenarios: typeof ALL_SCENARIOS,
  tag: string,
  withLimit: boolean,
  runOpts: RunOptions = opts,
): Promise<{ reports: ScenarioReport[]; hwmMb: number; appointments: number }> {
  const mint = new TokenMint(secret);
  const db = await openDb(url);
  const fx = await loadFixtures(db);
  console.log(`dataset (${tag}): ${fx.stores.length} stores, ${fx.appointments.toLocaleString('en-GB')} appointments`);
  const list = scenarios
    .map((make) => make())
    .filter((s) => !only || only.some((o) => s.name.toLowerCase().includes(o)));
  for (const s of list) await s.setup({ db, fx, mint });
  if (!url) {
    // The embedded engine allows one process: prepare every scenario now, then hand the files to the server.
    for (const s of list) await s.prepare?.({ db, fx, mint });
    await db.close();
  }
  const server: Child = await startChild(path.join(serverRoot, 'src/server.ts'), serverEnv(url), {
    nodeArgs,
    readyPath: '/healthz',
  });
  const rss = new RssSampler(server.pid);
  const reports: ScenarioReport[] = [];
  let hwm: ReturnType<typeof memoryOf> = null;
  try {
    for (const s of list) {
      let report: ScenarioReport;
      try {
        report = await runScenario(s, {
          server,
          rss,
          db: url ? db : null,
          env: { db, fx, mint },
          opts: { ...runOpts, limit: withLimit && runOpts.limit && !!url },
          resultsDir,
          tag,
        });
      } catch (err) {
        // One broken scenario is reported, not allowed to end the run.
        report = {
          name: s.name,
          kind: s.kind,
          available: false,
          note: `bench error: ${(err as Error).message.slice(0, 120)}`,
        };
      }
      reports.push(report);
      const h = report.http;
      console.log(
        `  ${s.name}: ${h ? `${h.rps} req/s, p50 ${h.p50} ms, p99 ${h.p99} ms, ${h.unexpected} errors` : 'not available'}${report.limit ? `; SQL-only ${report.limit.rps} req/s (ratio ${report.ratio?.toFixed(2)})` : ''}`,
      );
    }
  } finally {
    hwm = memoryOf(server.pid);
    rss.stop();
    await server.stop();
    if (url) await db.close();
  }
  return { reports, hwmMb: Math.round((hwm?.hwmKb ?? 0) / 102.4) / 10, appointments: fx.appointments };
}

const started = new Date();
const pageWeight = reportPageWeight();
const ceiling = await measureCeiling();
console.log(`HTTP ceiling: ${ceiling} req/s`);
let writeCeiling: CeilingResult | null = null;
if (databaseUrl && args['no-ceiling'] !== true) {
  writeCeiling = await measureWriteCeiling(databaseUrl, {
    connections: poolSize,
    loops: opts.connections,
    seconds: opts.duration,
    warmup: opts.warmup,
  });
  console.log(
    `write ceiling: ${writeCeiling.tps} tx/s (Node pg ${writeCeiling.node.tps}, pgbench ${writeCeiling.pgbench?.tps ?? 'n/a'})`,
  );
  const b = writeCeiling.booking;
  if (b)
    console.log(
      `booking-shaped ceiling: ${b.tps} tx/s (Node pg ${b.node.tps}, pgbench ${b.pgbench?.tps ?? 'n/a'}), ${(b.tps / writeCeiling.tps).toFixed(2)} of the one-insert ceiling`,
    );
}
const deskOnly = ['burst', 'desk', 'page', 'import'];
const wantsScenarios = !only || only.some((o) => o !== 'events' && !deskOnly.includes(o));
const main = wantsScenarios
  ? await runAll(databaseUrl, ALL_SCENARIOS, 'base', true)
  : { reports: [], hwmMb: 0, appointments: 0 };
const round2 = (x: number) => Math.round(x * 100) / 100;
for (const r of main.reports) {
  // A scenario's limit is the lower of its SQL-only throughput and the HTTP ceiling.
  if (r.http && r.limit && ceiling < r.limit.rps) r.ratio = round2(r.http.rps / ceiling);
  if (writeCeiling && r.kind === 'write' && r.http) {
    r.ceilingRatio = round2(r.http.rps / writeCeiling.tps);
    if (r.limit) r.sqlCeilingRatio = round2(r.limit.rps / writeCeiling.tps);
    if (writeCeiling.booking) {
      r.bookingCeilingRatio = round2(r.http.rps / writeCeiling.booking.tps);
      if (r.limit) r.sqlBookingCeilingRatio = round2(r.limit.rps / writeCeiling.booking.tps);
    }
  }
}
console.log('\n' + table(main.reports, ceiling, writeCeiling));
console.log(`server peak RSS over the whole run (VmHWM): ${main.hwmMb} MB`);
if (opts.steady.length)
  console.log(
    '\nLatency at a steady rate (open loop, evenly spaced arrivals, from the scheduled send):\n' +
      steadyTable(main.reports),
  );

// The same scenarios on the embedded engine (a small shop's setup): the embedded PostgreSQL under --embedded-dir.
let embedded: Awaited<ReturnType<typeof runAll>> | null = null;
if (embeddedArg && databaseUrl) {
  process.env.DATA_DIR = embeddedArg;
  embedded = await runAll(null, ALL_SCENARIOS, 'embedded', false);
  console.log(
    `\nEmbedded engine (PostgreSQL, ${embeddedDir()}, ${embedded.appointments.toLocaleString('en-GB')} appointments) beside the server:`,
  );
  console.log(sideBySide(main.reports, embedded.reports));
  console.log(`embedded server peak RSS (VmHWM): ${embedded.hwmMb} MB`);
}

function sideBySide(server: ScenarioReport[], emb: ScenarioReport[]): string {
  const lines = [
    '| scenario | server req/s | server p99 ms | server p99 @50/s | embedded req/s | embedded p99 ms | embedded p99 @50% | embedded p99 @50/s |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const light = (r?: ScenarioReport) => r?.steady?.find((s) => s.label.endsWith('/s'))?.p99 ?? 'n/a';
  const half = (r?: ScenarioReport) => r?.steady?.find((s) => s.label.endsWith('of max'))?.p99 ?? 'n/a';
  for (const s of server) {
    const e = emb.find((x) => x.name === s.name);
    lines.push(
      `| ${s.name} | ${s.http?.rps ?? 'n/a'} | ${s.http?.p99 ?? 'n/a'} | ${light(s)} | ${e?.http?.rps ?? 'n/a'} | ${e?.http?.p99 ?? 'n/a'} | ${half(e)} | ${light(e)} |`,
    );
  }
  return lines.join('\n');
}

// The event write's cost on create, in this same run (server engine; --only events runs just this).
let eventCost: EventCostReport | null = null;
if (!only || only.includes('events')) {
  if (!databaseUrl)
    console.log('\nevent write cost: not measured on the embedded engine (the server owns its only connection)');
  else {
    console.log('\nEvent write cost on create (events on vs dropped by a trigger on the bench database, alternating):');
    const db = await openDb(databaseUrl);
    try {
      const fx = await loadFixtures(db);
      eventCost = await measureEventCost({
        db,
        env: { db, fx, mint: new TokenMint(secret) },
        serverEnv: serverEnv(databaseUrl),
        nodeArgs,
        opts,
        resultsDir,
      });
      console.log(
        `  events on ${eventCost.on.rps} req/s vs off ${eventCost.off.rps} req/s: the event write costs ${(eventCost.cost * 100).toFixed(1)}% of create throughput (target at most 10%); same round trips by construction: the event rides in the audit statement`,
      );
    } finally {
      await db.close();
    }
  }
}

let growth: GrowthReport[] | null = null;
let grownAppointments: number | null = null;
if (growthUrl) {
  const reads = ALL_SCENARIOS.filter((make) => make().kind === 'read');
  const grown = await runAll(growthUrl, reads, 'grown', false, { ...opts, steady: [] });
  grownAppointments = grown.appointments;
  growth = [];
  for (const g of grown.reports) {
    const b = main.reports.find((r) => r.name === g.name);
    if (!b?.http || !g.http) continue;
    const pick = (l: LoadResult) => ({ p50: l.p50, p99: l.p99, rps: l.rps });
    growth.push({ name: g.name, base: pick(b.http), grown: pick(g.http), p50Ratio: g.http.p50 / b.http.p50 });
  }
  const labels: [string, string] = [
    `${(main.appointments / 1e6).toFixed(2)}M appts`,
    `${(grown.appointments / 1e6).toFixed(2)}M appts`,
  ];
  console.log('\nGrowth (read scenarios):\n' + growthTable(growth, labels));
}

// The desk phases (issue 28): availability while the desk books, and burst then steady, with the
// workers in process (server engine only; --no-desk skips them).
let desk: DeskPhasesReport | null = null;
const deskPhases = { availability: !only || only.includes('desk'), burst: !only || only.includes('burst') };
if (databaseUrl && args['no-desk'] !== true && (deskPhases.availability || deskPhases.burst)) {
  const db = await openDb(databaseUrl);
  try {
    const fx = await loadFixtures(db);
    const env = { db, fx, mint: new TokenMint(secret) };
    desk = await runDeskPhases({
      env,
      serverEnv: serverEnv(databaseUrl),
      nodeArgs,
      serverRoot,
      phases: deskPhases,
      duration: opts.duration,
      warmup: opts.warmup,
      burst: num(args, 'burst', 10_000),
      steadySeconds: num(args, 'steady-seconds', 20),
    });
    console.log('\n' + describeDeskPhases(desk));
  } catch (err) {
    console.log(`\ndesk phases: bench error: ${(err as Error).message.slice(0, 200)}`);
  } finally {
    await db.close();
  }
}

// Webhook delivery: deliveries/s and commit-to-receiver lag at 200 writes/s (server engine only).
let webhooks: WebhookBenchResult | null = null;
if (databaseUrl && (!only || only.includes('webhooks'))) {
  try {
    webhooks = await runOnOwnDatabase(databaseUrl, {
      nodeArgs,
      seconds: quick ? 5 : 10,
      events: quick ? 5_000 : 20_000,
    });
    console.log('\n' + describeWebhookBench(webhooks));
  } catch (err) {
    console.log(`\nwebhooks: bench error: ${(err as Error).message.slice(0, 200)}`);
  }
}

// Customer messages: emails/s to a local SMTP server, sending alone and planning + sending (server engine only).
let messages: MessagesBenchResult | null = null;
if (databaseUrl && (!only || only.includes('messages'))) {
  try {
    messages = await runMessagesOnOwnDatabase(databaseUrl, { nodeArgs, emails: quick ? 1_000 : 5_000 });
    console.log('\n' + describeMessagesBench(messages));
  } catch (err) {
    console.log(`\nmessages: bench error: ${(err as Error).message.slice(0, 200)}`);
  }
}

// The booking page's first paint (issue 26's 1 s bar): a demo shop on its own embedded DATA_DIR, Chromium.
const pagePaint =
  !only || only.includes('page')
    ? await measurePagePaint().catch(
        (err: Error) => (console.log(`\npage paint: bench error: ${err.message.slice(0, 200)}`), null),
      )
    : null;
if (!only || only.includes('page')) console.log('\n' + describePagePaint(pagePaint));

// Lighthouse on the demo shop's booking page (mobile, desktop) and the console (mobile): issue 41's targets.
const lighthouseReport =
  !only || only.includes('lighthouse')
    ? await measureLighthouse().catch(
        (err: Error) => (console.log(`\nlighthouse: bench error: ${err.message.slice(0, 200)}`), null),
      )
    : null;
if (!only || only.includes('lighthouse')) console.log('\n' + describeLighthouse(lighthouseReport));

// Issue 45: 10,000 customers and 2,000 appointments imported, then a year's report, on their own store and database.
const importReport =
  !only || only.includes('import')
    ? await measureImportReport(
        { customers: 10_000, appointments: 2_000, runs: quick ? 5 : 20 },
        databaseUrl ?? undefined,
      ).catch((err: Error) => (console.log(`\nimport and report: bench error: ${err.message.slice(0, 200)}`), null))
    : null;
if (!only || only.includes('import')) console.log('\n' + describeImportReport(importReport));

const file = path.resolve('bench/results', `${label ? `${day}-${label}` : day}.json`);
writeJson(file, {
  started: started.toISOString(),
  finished: new Date().toISOString(),
  engine: databaseUrl ? 'pg' : 'embedded',
  engineLine,
  node: process.version,
  cores: os.cpus().length,
  loadavgAtEnd: os.loadavg(),
  options: { ...opts, poolSize, serverNodeArgs: nodeArgs, workersInProcess },
  appointments: main.appointments,
  httpCeilingRps: ceiling,
  writeCeiling,
  serverPeakRssMb: main.hwmMb,
  scenarios: main.reports,
  embedded: embedded && {
    dir: embeddedArg,
    appointments: embedded.appointments,
    peakRssMb: embedded.hwmMb,
    scenarios: embedded.reports,
  },
  growth: growth && { appointments: grownAppointments, rows: growth },
  eventCost,
  desk,
  webhooks,
  messages,
  pageWeight,
  pagePaint,
  lighthouse: lighthouseReport,
  importReport,
  explain: fs
    .readdirSync(resultsDir)
    .filter((f) => f.startsWith('explain-'))
    .map((f) => path.join(path.relative(process.cwd(), resultsDir), f)),
});
console.log(
  `\nresults: ${path.relative(process.cwd(), file)} (EXPLAIN plans in ${path.relative(process.cwd(), resultsDir)}/)`,
);
