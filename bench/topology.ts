// node bench/topology.ts [--scale 1] [--duration 10] [--connections 32] [--label topology] [--reuse] [--no-data]
// Reads per second and p99 of the diary (a week of a 10-unit store) and the availability search (31
// days, 20 units) in three setups, side by side in one run, on the topology of scripts/topology.ts
// (primary 5441, replica 5442, PgBouncer 5443, built here unless --reuse):
//   1. primary alone        DATABASE_URL = the primary
//   2. primary + replica    DATABASE_URL = the primary, DATABASE_READ_URL = the replica
//   3. through PgBouncer    DATABASE_URL = PgBouncer (transaction mode), DB_PREPARED_STATEMENTS=false
// One service process per setup, WORKER_ENABLED=false; autocannon closed loop after a warm-up. In
// setup 2 the share of requests the replica served is read from the service's own /metrics.
// On one machine the replica runs on the same cores as the primary and the service: it adds no
// capacity here, only a second server competing for them. The point is routing, not speed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openPg } from '../src/platform/db/pg.adapter.ts';
import { num, parseArgs, str } from './lib/args.ts';
import { loadFixtures } from './harness/fixtures.ts';
import { TokenMint } from './harness/tokens.ts';
import { startChild } from './harness/server.ts';
import { httpLoad } from './harness/load.ts';
import { urlOf as callUrl, type Call, type Scenario } from './scenarios/common.ts';
import { diaryWeek } from './scenarios/reads.ts';
import { availabilityMonth } from './scenarios/online.ts';
import { DEFAULT_TOPOLOGY, topologyUp, urlOf, waitForReplay } from '../reliability/topology.ts';

const args = parseArgs();
const scale = num(args, 'scale', 1);
const duration = num(args, 'duration', 10);
const warmup = num(args, 'warmup', 3);
const connections = num(args, 'connections', 32);
const label = str(args, 'label') ?? 'topology';
const o = DEFAULT_TOPOLOGY;
const DATABASE = 'bbo_bench_topology';
const secret = randomBytes(32).toString('hex');
const metricsToken = randomBytes(16).toString('hex');

if (args.reuse !== true) {
  const t0 = Date.now();
  await topologyUp(o);
  console.log(`topology up in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
const primaryUrl = urlOf(o.primaryPort, DATABASE);
// --no-data: the dataset is already in the primary's database (for example restored with
// pg_dump -Fc OTHER | pg_restore -d postgres://postgres@127.0.0.1:5441/bbo_bench_topology).
if (args['no-data'] !== true) {
  // The whole dataset, the online-booking store included (--add-online-store would add only that store).
  const data = spawnSync(process.execPath, ['bench/data.ts', '--scale', String(scale), '--database-url', primaryUrl], {
    stdio: 'inherit',
  });
  if (data.status !== 0) throw new Error('bench:data failed');
}
await waitForReplay(o, DATABASE, 300_000);

const db = openPg({ connectionString: primaryUrl, poolSize: 4 });
const fx = await loadFixtures(db);
const mint = new TokenMint(secret);
const scenarios: Scenario[] = [diaryWeek(), availabilityMonth()];
for (const s of scenarios) await s.setup({ db, fx, mint });
await db.close();

const setups: Array<{ name: string; env: Record<string, string> }> = [
  { name: 'primary alone', env: { DATABASE_URL: primaryUrl } },
  { name: 'primary + replica', env: { DATABASE_URL: primaryUrl, DATABASE_READ_URL: urlOf(o.replicaPort, DATABASE) } },
  {
    name: 'through PgBouncer',
    env: { DATABASE_URL: urlOf(o.pgbouncerPort, DATABASE), DB_PREPARED_STATEMENTS: 'false' },
  },
];

const wireOf = (call: Call) => {
  const token =
    call.actor.kind === 'merchant' ? mint.get('m', call.actor.storeId) : mint.get('c', (call.actor as any).customerId);
  return { method: call.method, path: callUrl(call), headers: { authorization: `Bearer ${token}` } };
};

async function replicaShare(url: string): Promise<{ replica: number; primary: number }> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
  const count = (served: string) =>
    Number(new RegExp(`^bbo_read_requests_total\\{served="${served}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { replica: count('replica'), primary: count('primary') };
}

interface Row {
  setup: string;
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  replicaShare: number | null;
}
const rows: Row[] = [];
console.log(
  `load: ${connections} connections, ${duration} s per phase (+${warmup} s warm-up), ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
for (const setup of setups) {
  const server = await startChild(
    'src/server.ts',
    {
      ...setup.env,
      AUTH_SECRET: secret,
      LOG_LEVEL: 'warn',
      DB_POOL_SIZE: '16',
      WORKER_ENABLED: 'false',
      METRICS_TOKEN: metricsToken,
      RATE_LIMIT_GLOBAL_PER_MIN: '10000000',
      RATE_LIMIT_SEARCH_PER_MIN: '10000000',
    },
    { nodeArgs: ['--max-semi-space-size=8'], readyPath: '/healthz' },
  );
  try {
    for (const s of scenarios) {
      let i = 0;
      const load = {
        connections: s.connections ?? connections,
        make: () => wireOf(s.call(i++)),
        isExpected: () => false,
        errorCodes: false,
      };
      await httpLoad(server.url, { ...load, duration: warmup });
      const before = setup.env.DATABASE_READ_URL ? await replicaShare(server.url) : null;
      const r = await httpLoad(server.url, { ...load, duration });
      const after = before ? await replicaShare(server.url) : null;
      const share =
        before && after
          ? (after.replica - before.replica) /
            Math.max(1, after.replica - before.replica + after.primary - before.primary)
          : null;
      rows.push({
        setup: setup.name,
        scenario: s.name,
        rps: r.rps,
        p50: r.p50,
        p99: r.p99,
        errors: r.unexpected,
        replicaShare: share,
      });
      console.log(
        `  ${setup.name} / ${s.name}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.unexpected} errors${share === null ? '' : `, ${(share * 100).toFixed(0)}% on the replica`}`,
      );
    }
  } finally {
    await server.stop();
  }
}

const lines = [
  '| scenario | ' + setups.map((s) => `${s.name} req/s | p99 ms`).join(' | ') + ' |',
  '|---|' + setups.map(() => '---|---|').join(''),
];
for (const s of scenarios) {
  const cells = setups.map((setup) => {
    const r = rows.find((x) => x.setup === setup.name && x.scenario === s.name)!;
    return `${r.rps} | ${r.p99}`;
  });
  lines.push(`| ${s.name} | ${cells.join(' | ')} |`);
}
console.log('\n' + lines.join('\n'));
const file = path.resolve('bench/results', `${new Date().toISOString().slice(0, 10)}-${label}.json`);
fs.writeFileSync(
  file,
  JSON.stringify(
    {
      started: new Date().toISOString(),
      scale: args['no-data'] === true ? 'existing dataset' : scale,
      appointments: fx.appointments,
      duration,
      warmup,
      connections,
      cores: os.cpus().length,
      loadavg: os.loadavg(),
      rows,
    },
    null,
    2,
  ),
);
console.log(`results: ${path.relative(process.cwd(), file)}`);
