// node bench/search-plans.ts --database-url URL --label NAME [--needles smith,olivia,...] [--store 0]
// EXPLAIN (ANALYZE, BUFFERS) of the front desk's three searches (appointment search, roster by spend +
// facet + text, customer search), one request per needle, against a store of the bench dataset (0 the
// flagship, 1 the largest of the long tail, ...). Buffer counts do not depend on the host's load, so
// two trees (run this file from each checkout) compare on them where timings cannot. Writes every plan
// to bench/results/<day>-<label>/plans-<scenario>.txt and a summary (time and buffers per needle) to
// summary.txt; without --database-url, the embedded engine under DATA_DIR.
import fs from 'node:fs';
import path from 'node:path';
import { num, parseArgs, str } from './lib/args.ts';
import { openTarget } from './lib/target.ts';
import { contextFor, recording } from './harness/direct.ts';
import { merchant, NEEDLES } from './scenarios/common.ts';

const args = parseArgs();
const db = await openTarget(str(args, 'database-url') ?? process.env.DATABASE_URL ?? null);
const needles = str(args, 'needles')?.split(',') ?? NEEDLES;
const ord = Math.trunc(num(args, 'store', 0));
const storeName = ord === 0 ? 'Bench Flagship' : `Bench Store ${ord}`;
const store = (await db.query<{ id: string }>('SELECT id FROM stores WHERE name = $1', [storeName])).rows[0];
if (!store) throw new Error(`no store named ${storeName}`);
const dir = path.resolve(
  'bench/results',
  `${new Date().toISOString().slice(0, 10)}-${str(args, 'label') ?? 'search-plans'}`,
);
fs.mkdirSync(dir, { recursive: true });

const { searchAppointmentPeople } = await import('../src/bookings/appointment-search/appointment-search.service.ts');
const { listRoster, searchRoster } = await import('../src/customers/roster/roster.service.ts');
const searches: [string, (ctx: any, q: string) => Promise<unknown>][] = [
  [
    'appointment-search',
    (ctx, q) => searchAppointmentPeople(ctx, { store_id: store.id, q, limit: 20, visit_limit: 12 } as any),
  ],
  [
    'roster-by-spend-facet-text',
    (ctx, q) =>
      listRoster(ctx, { store_id: store.id, sort: 'spend', facets: 'has_orders', q, limit: 30, offset: 0 } as any),
  ],
  ['customer-search', (ctx, q) => searchRoster(ctx, { store_id: store.id, q } as any)],
];

const summary: string[] = [
  `# ${storeName} (${store.id}), ${new Date().toISOString()}`,
  'scenario | needle | statement | rows | ms | shared hit | read',
];
for (const [name, fn] of searches) {
  const out: string[] = [];
  for (const needle of needles) {
    const rec = recording(db);
    const ctx = contextFor(rec.db, { actor: merchant(store.id), method: 'GET', url: '/bench' });
    await fn(ctx, needle); // once to warm the cache, then the recorded call
    rec.take();
    await fn(ctx, needle);
    for (const [n, s] of rec.take().entries()) {
      if (!/^\s*(WITH|SELECT)\b/i.test(s.sql) || (/FROM stores\b/.test(s.sql) && s.sql.length < 400)) continue;
      const plan = (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`, s.params)).rows.map(
        (r) => r['QUERY PLAN'],
      );
      const top = plan.find((l) => /Buffers: shared/.test(l)) ?? '';
      const hit = Number(top.match(/hit=(\d+)/)?.[1] ?? 0);
      const read = Number(top.match(/read=(\d+)/)?.[1] ?? 0);
      const ms = plan.find((l) => l.startsWith('Execution Time'))?.match(/([\d.]+) ms/)?.[1];
      const rows = plan[0].match(/actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/)?.[1];
      summary.push(`${name} | ${needle} | ${n + 1} | ${rows} | ${ms} | ${hit} | ${read}`);
      out.push(
        `## ${needle}: statement ${n + 1}`,
        s.sql.trim(),
        `-- params: ${JSON.stringify(s.params)}`,
        '',
        ...plan,
        '',
      );
    }
  }
  fs.writeFileSync(path.join(dir, `plans-${name}.txt`), out.join('\n'));
}
fs.writeFileSync(path.join(dir, 'summary.txt'), summary.join('\n') + '\n');
console.log(summary.join('\n'));
console.log(`plans: ${path.relative(process.cwd(), dir)}/`);
await db.close();
