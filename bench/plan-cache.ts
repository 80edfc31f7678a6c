// node bench/plan-cache.ts --database-url URL --label NAME [--stores 0,1,49] [--needles smith,olivia,...]
// Custom plan against generic plan for each search statement the front desk sends with a text needle
// (the appointment search, the customer search's two shapes, the roster's text-filtered page and its
// count), per store and needle: whether one cached plan fits every needle, so the statement can drop
// planPerCall (src/platform/db/pg.adapter.ts). The statements and their values are recorded from the
// app's own code, then run on one session with the app's planner settings (SESSION_OPTIONS) as
// `PREPARE q AS <statement>` and `EXPLAIN (ANALYZE, BUFFERS) EXECUTE q(<values>)` under
// plan_cache_mode force_custom_plan and force_generic_plan; then under auto, every needle executed twice
// in turn, to see which the server itself picks (pg_prepared_statements' generic_plans/custom_plans).
// Buffers are the top node's shared hit + read (load does not move them; the timings are the fastest
// of two runs and move with the host's load). Writes bench/results/<day>-<label>/summary.txt and
// every plan to plans-<store>-<statement>.txt.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { parseArgs, str } from './lib/args.ts';
import { openTarget } from './lib/target.ts';
import { contextFor, recording } from './harness/direct.ts';
import { merchant, NEEDLES } from './scenarios/common.ts';
import { SESSION_OPTIONS } from '../src/platform/db/pg.adapter.ts';

const args = parseArgs();
const url = str(args, 'database-url') ?? process.env.DATABASE_URL;
if (!url) throw new Error('--database-url is required (a server: the plan cache is per session)');
const needles = str(args, 'needles')?.split(',') ?? NEEDLES;
const stores = (str(args, 'stores') ?? '0,1,49').split(',').map(Number);
const dir = path.resolve(
  'bench/results',
  `${new Date().toISOString().slice(0, 10)}-${str(args, 'label') ?? 'plan-cache'}`,
);
fs.mkdirSync(dir, { recursive: true });

const db = await openTarget(url);
const client = new pg.Client({ connectionString: url, options: SESSION_OPTIONS });
await client.connect();

const { searchAppointmentPeople } = await import('../src/bookings/appointment-search/appointment-search.service.ts');
const { listRoster, searchRoster } = await import('../src/customers/roster/roster.service.ts');
const { rosterCount } = await import('../src/customers/roster/roster.repository.ts');

type Search = [string, (ctx: any, storeId: string, q: string) => Promise<unknown>];
const searches: Search[] = [
  [
    'appointment-search',
    (ctx, id, q) => searchAppointmentPeople(ctx, { store_id: id, q, limit: 20, visit_limit: 12 } as any),
  ],
  [
    'roster-page',
    (ctx, id, q) =>
      listRoster(ctx, { store_id: id, sort: 'spend', facets: 'has_orders', q, limit: 30, offset: 0 } as any),
  ],
  // Sent only for a page past the end; called directly so every needle has one.
  [
    'roster-count',
    (ctx, id, q) => rosterCount(ctx.db, { storeId: id, now: new Date().toISOString(), facets: ['has_orders'], q }),
  ],
  ['customer-search', (ctx, id, q) => searchRoster(ctx, { store_id: id, q } as any)],
];

/** The statement's shape: the customer search sends a walk or the matches (search-plan.ts). */
function shape(search: string, sql: string): string {
  if (/^\s*SELECT count\(\*\)/.test(sql)) return 'roster-count';
  if (search !== 'customer-search') return search;
  if (/matches AS MATERIALIZED/.test(sql)) return 'customer-search-matches';
  return /LIMIT \$3\) sc/.test(sql) ? 'customer-search-walk' : 'customer-search-walk-all';
}

function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (Array.isArray(v))
    return client.escapeLiteral(`{${v.map((x) => `"${String(x).replace(/[\\"]/g, '\\$&')}"`).join(',')}}`);
  if (v instanceof Date) return client.escapeLiteral(v.toISOString());
  return client.escapeLiteral(String(v));
}

interface Run {
  planMs: number;
  execMs: number;
  buffers: number;
  rows: number;
  plan: string[];
}

async function explain(values: string): Promise<Run> {
  let best: Run | null = null;
  for (let i = 0; i < 2; i++) {
    const plan = (await client.query(`EXPLAIN (ANALYZE, BUFFERS) EXECUTE q(${values})`)).rows.map(
      (r) => r['QUERY PLAN'],
    );
    const top = plan.find((l: string) => /Buffers: shared/.test(l)) ?? '';
    const run: Run = {
      planMs: Number(plan.find((l: string) => l.startsWith('Planning Time'))?.match(/([\d.]+) ms/)?.[1] ?? 0),
      execMs: Number(plan.find((l: string) => l.startsWith('Execution Time'))?.match(/([\d.]+) ms/)?.[1] ?? 0),
      buffers: Number(top.match(/hit=(\d+)/)?.[1] ?? 0) + Number(top.match(/read=(\d+)/)?.[1] ?? 0),
      rows: Number(plan[0].match(/rows=(\d+) loops/)?.[1] ?? 0),
      plan,
    };
    // The first generic execution builds the plan: keep its planning time, the faster run's execution.
    if (!best) best = run;
    else best = { ...run, planMs: Math.max(best.planMs, run.planMs), execMs: Math.min(best.execMs, run.execMs) };
  }
  return best!;
}

const summary = [
  `# ${url.replace(/\/\/[^@]*@/, '//')}, ${new Date().toISOString()}`,
  'store | statement | needle | rows | custom buffers | generic buffers | ratio | custom plan ms | generic plan ms (built) | custom exec ms | generic exec ms',
];
const verdicts: string[] = [
  '',
  'store | statement | needles | worst ratio (needle) | custom total | generic total | auto: custom/generic plans',
];

for (const ord of stores) {
  const name = ord === 0 ? 'Bench Flagship' : `Bench Store ${ord}`;
  const store = (await db.query<{ id: string }>('SELECT id FROM stores WHERE name = $1', [name])).rows[0];
  if (!store) {
    console.log(`no store named ${name}: skipped`);
    continue;
  }
  const statements = new Map<string, { sql: string; runs: { needle: string; params: readonly unknown[] }[] }>();
  for (const [search, fn] of searches) {
    for (const needle of needles) {
      const rec = recording(db);
      const ctx = contextFor(rec.db, { actor: merchant(store.id), method: 'GET', url: '/bench' });
      await fn(ctx, store.id, needle);
      for (const s of rec.take()) {
        if (!s.params.length || !/^\s*(WITH|SELECT)\b/i.test(s.sql) || /FROM stores\b|pg_stats/.test(s.sql)) continue;
        // A phone-like needle adds a branch, one with no run of 3 drops the tokens: another text each.
        let key = shape(search, s.sql);
        if (/search_phone LIKE/.test(s.sql)) key += '-phone';
        if (!/search_tokens @>/.test(s.sql)) key += '-notokens';
        const entry = statements.get(key) ?? { sql: s.sql, runs: [] };
        if (entry.sql !== s.sql) throw new Error(`${key}: two statement texts`);
        if (entry.runs.some((r) => r.needle === needle)) continue; // the page's count past its end
        entry.runs.push({ needle, params: s.params });
        statements.set(key, entry);
      }
    }
  }
  for (const [key, { sql, runs }] of statements) {
    const out: string[] = [sql.trim(), ''];
    await client.query('DEALLOCATE ALL');
    await client.query(`PREPARE q AS ${sql}`);
    const results: { needle: string; custom: Run; generic: Run }[] = [];
    await client.query('SET plan_cache_mode = force_generic_plan');
    const generic = [];
    for (const r of runs) generic.push(await explain(r.params.map(literal).join(', ')));
    await client.query('SET plan_cache_mode = force_custom_plan');
    for (const [i, r] of runs.entries()) {
      const custom = await explain(r.params.map(literal).join(', '));
      results.push({ needle: r.needle, custom, generic: generic[i] });
      const ratio = generic[i].buffers / Math.max(1, custom.buffers);
      summary.push(
        [
          ord,
          key,
          r.needle,
          custom.rows,
          custom.buffers,
          generic[i].buffers,
          ratio.toFixed(2),
          custom.planMs,
          generic[i].planMs,
          custom.execMs,
          generic[i].execMs,
        ].join(' | '),
      );
      out.push(
        `## ${r.needle}: custom`,
        `-- params: ${JSON.stringify(r.params)}`,
        ...custom.plan,
        '',
        `## ${r.needle}: generic`,
        ...generic[i].plan,
        '',
      );
    }
    // What the server chooses by itself (plan_cache_mode auto), as a named statement would be on a connection.
    await client.query('SET plan_cache_mode = auto');
    await client.query('DEALLOCATE q');
    await client.query(`PREPARE q AS ${sql}`);
    for (let i = 0; i < 2; i++)
      for (const r of runs) await client.query(`EXECUTE q(${r.params.map(literal).join(', ')})`);
    const auto = (await client.query(`SELECT custom_plans, generic_plans FROM pg_prepared_statements WHERE name = 'q'`))
      .rows[0];
    const worst = results.reduce((a, b) =>
      b.generic.buffers / Math.max(1, b.custom.buffers) > a.generic.buffers / Math.max(1, a.custom.buffers) ? b : a,
    );
    const sum = (f: (x: (typeof results)[0]) => number) => results.reduce((s, x) => s + f(x), 0);
    verdicts.push(
      [
        ord,
        key,
        results.length,
        `${(worst.generic.buffers / Math.max(1, worst.custom.buffers)).toFixed(2)} (${worst.needle})`,
        sum((x) => x.custom.buffers),
        sum((x) => x.generic.buffers),
        `${auto.custom_plans}/${auto.generic_plans}`,
      ].join(' | '),
    );
    fs.writeFileSync(path.join(dir, `plans-${ord}-${key}.txt`), out.join('\n'));
  }
}
summary.push(...verdicts);
fs.writeFileSync(path.join(dir, 'summary.txt'), `${summary.join('\n')}\n`);
console.log(summary.join('\n'));
console.log(`plans: ${path.relative(process.cwd(), dir)}/`);
await client.end();
await db.close();
