// The report: one markdown table on stdout, the same figures as JSON in bench/results/.
import fs from 'node:fs';
import type { LoadResult } from './load.ts';
import type { OpenLoopResult } from './open-loop.ts';

/** CPU ms a request of the closed loop, summed over the machine's cores (results before round 16 have node and database only). */
export interface CpuPerRequest {
  node: number;
  database: number;
  /** The kernel's part of node's and of the database's. */
  nodeKernel: number;
  databaseKernel: number;
  /** The bench's own process, mostly the load generator. */
  loadGenerator: number;
  /** Busy time of everything else: the kernel's threads, other processes. */
  other: number;
  idle: number;
  steal: number;
}

export interface ScenarioReport {
  name: string;
  kind: 'read' | 'write';
  available: boolean;
  note?: string;
  http?: LoadResult & { peakRssMb: number; cpuMsPerRequest?: CpuPerRequest };
  limit?: LoadResult;
  ratio?: number;
  /** Writes: HTTP req/s over the one-insert ceiling (ceiling.ts), and the SQL-only limit's. */
  ceilingRatio?: number;
  sqlCeilingRatio?: number;
  /** Writes: HTTP req/s over the booking-shaped ceiling (ceiling.ts, issue 28), and the SQL-only limit's. */
  bookingCeilingRatio?: number;
  sqlBookingCeilingRatio?: number;
  /** Open-loop phases at a steady rate. */
  steady?: (OpenLoopResult & { label: string })[];
  /** Fixed-rate phases not run: the rate is above what the scenario serves in a closed loop. */
  steadySkipped?: { rate: number; label: string; maxRps: number }[];
  statementsPerRequest?: number;
  explainMainMs?: number;
  loadavg?: number[];
  /** Concurrency of the closed-loop and SQL-only phases (the scenario's own where its target names one). */
  connections?: number;
}

export interface GrowthReport {
  name: string;
  base: { p50: number; p99: number; rps: number };
  grown: { p50: number; p99: number; rps: number };
  p50Ratio: number;
}

// Round 2 targets (issue 18): writes against the one-insert ceiling, latency at a steady rate.
const TARGETS = {
  ratio: 0.7,
  ceiling: { 'create appointment': 0.35, reschedule: 0.3, 'check-in/complete': 0.3, settle: 0.3 } as Record<
    string,
    number
  >,
  // Issue 28: every write against the booking-shaped ceiling.
  bookingCeiling: { 'create appointment': 0.5, reschedule: 0.5, 'check-in/complete': 0.5, settle: 0.5 } as Record<
    string,
    number
  >,
  readP99AtHalf: 25,
  createP99AtHalf: 40,
  p99AtLight: 10,
  rssMb: 300,
  growth: 1.5,
  // Issue 16 (online booking), closed loop at the scenario's own concurrency (8).
  online: {
    'availability 31 days': { p50: 20, p99: 50 },
    'availability 90 days': { p99: 150 },
  } as Record<string, { p50?: number; p99?: number }>,
};

const steadyAt = (r: ScenarioReport, half: boolean) =>
  r.steady?.find((s) => (half ? s.label.endsWith('of max') : s.label.endsWith('/s')));

function verdict(r: ScenarioReport): string {
  if (!r.http) return '';
  const misses: string[] = [];
  const ceilingTarget = TARGETS.ceiling[r.name];
  if (ceilingTarget !== undefined && r.ceilingRatio !== undefined && r.ceilingRatio < ceilingTarget)
    misses.push(`ceiling<${ceilingTarget}`);
  const bookingTarget = TARGETS.bookingCeiling[r.name];
  if (bookingTarget !== undefined && r.bookingCeilingRatio !== undefined && r.bookingCeilingRatio < bookingTarget)
    misses.push(`booking ceiling<${bookingTarget}`);
  const half = steadyAt(r, true);
  const light = steadyAt(r, false);
  if (half && r.kind === 'read' && half.p99 >= TARGETS.readP99AtHalf) misses.push(`p99@half>=${TARGETS.readP99AtHalf}`);
  if (half && r.name.startsWith('create') && half.p99 >= TARGETS.createP99AtHalf)
    misses.push(`p99@half>=${TARGETS.createP99AtHalf}`);
  if (light && light.p99 >= TARGETS.p99AtLight) misses.push(`p99@${light.label}>=${TARGETS.p99AtLight}`);
  for (const s of r.steadySkipped ?? []) misses.push(`${s.label} beyond its maximum`);
  if (r.http.unexpected > 0 || (r.steady ?? []).some((s) => s.unexpected > 0)) misses.push('errors');
  if (r.http.peakRssMb >= TARGETS.rssMb) misses.push('rss');
  const online = Object.entries(TARGETS.online).find(([prefix]) => r.name.startsWith(prefix))?.[1];
  if (online?.p50 !== undefined && r.http.p50 >= online.p50) misses.push(`p50>=${online.p50}`);
  if (online?.p99 !== undefined && r.http.p99 >= online.p99) misses.push(`p99>=${online.p99}`);
  if (r.name.startsWith('hold + confirm') && r.ratio !== undefined && r.ratio < TARGETS.ratio)
    misses.push(`ratio<${TARGETS.ratio}`);
  return misses.length ? `miss: ${misses.join(', ')}` : 'ok';
}

const fmt = (x: number | undefined, digits = 2) => (x === undefined ? 'n/a' : x.toFixed(digits));

export function table(
  rows: ScenarioReport[],
  ceilingRps: number | null,
  writeCeiling: CeilingLine | null = null,
): string {
  const head =
    "| scenario | req/s | p50 ms | p99 ms | errors | expected 409 | peak RSS MB | SQL-only req/s | SQL-only p50 ms | ratio to SQL | ratio to insert ceiling (SQL-only's) | ratio to booking ceiling (SQL-only's) | stmts/req | targets |";
  const lines = [head, head.replace(/[^|]+/g, (m) => '-'.repeat(Math.max(3, m.length)))];
  for (const r of rows) {
    if (!r.available || !r.http) {
      lines.push(`| ${r.name} | not available${r.note ? ` (${r.note})` : ''} | | | | | | | | | | | | |`);
      continue;
    }
    const h = r.http;
    const l = r.limit;
    const ceil = r.ceilingRatio === undefined ? '' : `${fmt(r.ceilingRatio)} (${fmt(r.sqlCeilingRatio)})`;
    const bceil =
      r.bookingCeilingRatio === undefined ? '' : `${fmt(r.bookingCeilingRatio)} (${fmt(r.sqlBookingCeilingRatio)})`;
    lines.push(
      `| ${r.name} | ${h.rps} | ${h.p50} | ${h.p99} | ${h.unexpected} | ${h.expected} | ${h.peakRssMb} | ${l?.rps ?? 'n/a'} | ${l?.p50 ?? 'n/a'} | ${r.ratio?.toFixed(2) ?? 'n/a'} | ${ceil} | ${bceil} | ${r.statementsPerRequest ?? ''} | ${verdict(r)} |`,
    );
  }
  if (ceilingRps !== null)
    lines.push('', `HTTP ceiling (bare Fastify route, same Node, same connections): ${ceilingRps} req/s`);
  if (writeCeiling) {
    lines.push(
      `Write ceiling (one INSERT per transaction through a store/unit/tstzrange exclusion constraint): ${writeCeiling.tps} tx/s ` +
        `(Node pg: ${writeCeiling.node.tps} tx/s over ${writeCeiling.node.connections} sessions, ${writeCeiling.node.loops} in flight, p50 ${writeCeiling.node.p50} ms; ` +
        `pgbench: ${writeCeiling.pgbench ? `${writeCeiling.pgbench.tps} tx/s, ${writeCeiling.pgbench.clients} clients` : 'not installed'})`,
    );
    const b = writeCeiling.booking;
    if (b) {
      lines.push(
        `Booking-shaped ceiling (one statement: the appointment through the same constraint, an audit row, an outbox event with pg_current_xact_id(), an idempotency record): ${b.tps} tx/s, ` +
          `${(b.tps / writeCeiling.tps).toFixed(2)} of the one-insert ceiling (Node pg: ${b.node.tps} tx/s, p50 ${b.node.p50} ms; pgbench: ${b.pgbench ? `${b.pgbench.tps} tx/s` : 'not installed'})`,
      );
    }
  }
  return lines.join('\n');
}

/** Open-loop latency: one row per scenario and rate. */
export function steadyTable(rows: ScenarioReport[]): string {
  const lines = [
    '| scenario | rate | achieved req/s | p50 ms | p99 ms | p99.9 ms | max ms | send lag p99 ms | errors |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    for (const s of r.steady ?? []) {
      lines.push(
        `| ${r.name} | ${s.rate}/s (${s.label}) | ${s.achievedRps} | ${s.p50} | ${s.p99} | ${s.p999} | ${s.max} | ${s.sendLagP99} | ${s.unexpected} |`,
      );
    }
    for (const s of r.steadySkipped ?? []) {
      lines.push(
        `| ${r.name} | ${s.rate}/s (${s.label}) | not run: above its closed-loop maximum of ${s.maxRps} req/s | | | | | | |`,
      );
    }
  }
  return lines.join('\n');
}

export interface CeilingLine {
  tps: number;
  node: { tps: number; p50: number; p99: number; connections: number; loops: number };
  pgbench: { tps: number; clients: number } | null;
  booking?: { tps: number; node: { tps: number; p50: number }; pgbench: { tps: number } | null } | null;
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
