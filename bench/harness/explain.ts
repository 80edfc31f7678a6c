// EXPLAIN (ANALYZE, BUFFERS) of the statements one request of a read scenario sends, captured by
// calling the service once through a recording database and replaying each SELECT under EXPLAIN
// with the same parameters. Written beside the results as explain-<scenario>.txt.
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../../src/platform/db/port.ts';
import type { Recorded } from './direct.ts';

export const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export async function explainAll(
  db: Database,
  statements: Recorded[],
  file: string,
  title: string,
): Promise<{ mainMs: number }> {
  const out: string[] = [`# ${title}`, `# ${new Date().toISOString()}`, ''];
  let mainMs = 0;
  for (const [n, s] of statements.entries()) {
    if (!/^\s*(WITH|SELECT)\b/i.test(s.sql)) continue;
    out.push(
      `## statement ${n + 1} (${s.ms.toFixed(2)} ms when the service ran it)`,
      s.sql.trim(),
      `-- params: ${JSON.stringify(s.params)}`,
      '',
    );
    try {
      const res = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`, s.params);
      const plan = res.rows.map((r) => r['QUERY PLAN']);
      const exec = plan.find((l) => l.startsWith('Execution Time'));
      const ms = Number(exec?.match(/([\d.]+) ms/)?.[1] ?? 0);
      mainMs = Math.max(mainMs, ms);
      out.push(...plan, '');
    } catch (err) {
      out.push(`(EXPLAIN failed: ${(err as Error).message})`, '');
    }
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, out.join('\n'));
  return { mainMs };
}
