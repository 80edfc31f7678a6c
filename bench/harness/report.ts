// The report: one markdown table on stdout, the same figures as JSON in bench/results/.
import fs from 'node:fs';
import type { LoadResult } from './load.ts';

export interface ScenarioReport {
  name: string;
  kind: 'read' | 'write';
  available: boolean;
  note?: string;
  http?: LoadResult & { peakRssMb: number };
  limit?: LoadResult;
  ratio?: number;
  statementsPerRequest?: number;
  explainMainMs?: number;
  loadavg?: number[];
}

export interface GrowthReport {
  name: string;
  base: { p50: number; p99: number; rps: number };
  grown: { p50: number; p99: number; rps: number };
  p50Ratio: number;
}

const TARGETS = { ratio: 0.7, readP99: 25, createP99: 40, rssMb: 300, growth: 1.5 };

function verdict(r: ScenarioReport): string {
  if (!r.http) return '';
  const misses: string[] = [];
  if (r.ratio !== undefined && r.ratio < TARGETS.ratio) misses.push(`ratio<${TARGETS.ratio}`);
  if (r.kind === 'read' && r.http.p99 >= TARGETS.readP99) misses.push(`p99>=${TARGETS.readP99}`);
  if (r.name.startsWith('create') && r.http.p99 >= TARGETS.createP99) misses.push(`p99>=${TARGETS.createP99}`);
  if (r.http.unexpected > 0) misses.push('errors');
  if (r.http.peakRssMb >= TARGETS.rssMb) misses.push('rss');
  return misses.length ? `miss: ${misses.join(', ')}` : 'ok';
}

export function table(rows: ScenarioReport[], ceilingRps: number | null): string {
  const head = '| scenario | req/s | p50 ms | p99 ms | errors | expected 409 | peak RSS MB | SQL-only req/s | SQL-only p50 ms | ratio | stmts/req | targets |';
  const lines = [head, head.replace(/[^|]+/g, (m) => '-'.repeat(Math.max(3, m.length)))];
  for (const r of rows) {
    if (!r.available || !r.http) {
      lines.push(`| ${r.name} | not available${r.note ? ` (${r.note})` : ''} | | | | | | | | | | |`);
      continue;
    }
    const h = r.http;
    const l = r.limit;
    lines.push(
      `| ${r.name} | ${h.rps} | ${h.p50} | ${h.p99} | ${h.unexpected} | ${h.expected} | ${h.peakRssMb} | ${l?.rps ?? 'n/a'} | ${l?.p50 ?? 'n/a'} | ${r.ratio?.toFixed(2) ?? 'n/a'} | ${r.statementsPerRequest ?? ''} | ${verdict(r)} |`,
    );
  }
  if (ceilingRps !== null) lines.push('', `HTTP ceiling (bare Fastify route, same Node, same connections): ${ceilingRps} req/s`);
  return lines.join('\n');
}

export function growthTable(rows: GrowthReport[], labels: [string, string]): string {
  const lines = [
    `| read scenario | p50 ms ${labels[0]} | p50 ms ${labels[1]} | p50 ratio | p99 ms ${labels[0]} | p99 ms ${labels[1]} | target (<= ${TARGETS.growth}) |`,
    '|---|---|---|---|---|---|---|',
  ];
  for (const g of rows) {
    lines.push(
      `| ${g.name} | ${g.base.p50} | ${g.grown.p50} | ${g.p50Ratio.toFixed(2)} | ${g.base.p99} | ${g.grown.p99} | ${g.p50Ratio <= TARGETS.growth ? 'ok' : 'miss'} |`,
    );
  }
  return lines.join('\n');
}

export function writeJson(file: string, data: unknown) {
  fs.writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
}
