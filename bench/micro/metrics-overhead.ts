// Micro-benchmark behind docs/performance/history/observability-1.md: what GET /metrics costs a
// request (src/platform/metrics/). The whole-service bench (npm run bench, metrics on and off) cannot
// resolve a few microseconds on a shared 2-core machine, so this measures the added work itself:
//  1. Metrics.observeRequest alone, over 60 route templates and 4 status classes (ns per call);
//  2. a Fastify app answering a trivial route through app.inject, with and without the metrics
//     plugin, in alternating rounds (µs per request), so load on the machine hits both alike;
//  3. one scrape of that registry (ms), for an operator's idea of the scrape's own cost.
// Run: ./node_modules/.bin/node bench/micro/metrics-overhead.ts
import Fastify from 'fastify';
import { Metrics } from '../../src/platform/metrics/metrics.ts';
import { registerMetrics } from '../../src/platform/metrics/metrics.plugin.ts';

const ROUTES = Array.from({ length: 60 }, (_, i) => `/api/v1/feature${i % 12}/things${i}/:id`);
const STATUS = [200, 201, 404, 409];

function observeAlone(n: number): number {
  const metrics = new Metrics({ defaultMetrics: false });
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++)
    metrics.observeRequest('GET', ROUTES[i % ROUTES.length], STATUS[i & 3], 0.003 + (i % 7) * 0.001);
  return Number(process.hrtime.bigint() - start) / n;
}

async function app(withMetrics: boolean) {
  const a = Fastify({ logger: false });
  a.addHook('onRoute', () => {});
  if (withMetrics) registerMetrics(a, new Metrics({ defaultMetrics: false }), 'micro-bench-token-0123456789');
  a.get('/things/:id', { config: { auth: { kind: 'public' } } as any }, async () => ({ ok: true }));
  await a.ready();
  return a;
}

async function perRequest(a: Awaited<ReturnType<typeof app>>, n: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await a.inject({ method: 'GET', url: `/things/${i}` });
  return Number(process.hrtime.bigint() - start) / n / 1000;
}

observeAlone(200_000); // warm-up
const alone = [observeAlone(1_000_000), observeAlone(1_000_000), observeAlone(1_000_000)];
console.log(`observeRequest alone: ${alone.map((x) => x.toFixed(0)).join(', ')} ns per call`);

const off = await app(false);
const on = await app(true);
await perRequest(off, 5_000);
await perRequest(on, 5_000);
const rounds: Array<{ off: number; on: number }> = [];
for (let r = 0; r < 6; r++) rounds.push({ off: await perRequest(off, 20_000), on: await perRequest(on, 20_000) });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const r of rounds)
  console.log(
    `  round: off ${r.off.toFixed(2)} µs, on ${r.on.toFixed(2)} µs, difference ${(r.on - r.off).toFixed(2)} µs`,
  );
const mOff = median(rounds.map((r) => r.off));
const mOn = median(rounds.map((r) => r.on));
console.log(
  `inject, trivial route (median of 6 rounds of 20,000): off ${mOff.toFixed(2)} µs, on ${mOn.toFixed(2)} µs per request (+${(mOn - mOff).toFixed(2)} µs, ${(((mOn - mOff) / mOff) * 100).toFixed(1)}%)`,
);

const scraped = new Metrics();
for (let i = 0; i < 100_000; i++) scraped.observeRequest('GET', ROUTES[i % ROUTES.length], STATUS[i & 3], 0.01);
const s0 = performance.now();
const { body } = await scraped.scrape();
console.log(
  `scrape of 60 routes x 4 classes with process metrics: ${(performance.now() - s0).toFixed(1)} ms, ${body.length.toLocaleString('en-GB')} bytes`,
);
await off.close();
await on.close();
