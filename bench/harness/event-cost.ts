// What the event write costs a create, measured in the same run: the create scenario with events
// written (as shipped) and with a trigger on the bench database that drops each event row before it
// is written (the service carries no switch for it), alternating on/off/off/on so drift in the
// machine's load falls on both sides. Target: events cost at most 10% of create throughput.
import type { Database } from '../../src/platform/db/port.ts';
import { createAppointment } from '../scenarios/appointments.ts';
import type { Env } from '../scenarios/common.ts';
import { runScenario, type RunOptions } from './scenario-runner.ts';
import { RssSampler, startChild } from './server.ts';

export interface EventCostPhase {
  mode: 'on' | 'off';
  rps: number;
  p50: number;
  p99: number;
  eventsWritten: number;
}

export interface EventCostReport {
  phases: EventCostPhase[];
  on: { rps: number; p99: number };
  off: { rps: number; p99: number };
  /** 1 - on/off: the share of create throughput the event write costs. */
  cost: number;
}

/** The off phases' trigger, in a schema of the bench's own (the service reports only public's unowned functions). */
async function eventsOff(db: Database, off: boolean): Promise<void> {
  await db.query('DROP TRIGGER IF EXISTS bench_events_off ON events');
  if (!off) return;
  await db.query('CREATE SCHEMA IF NOT EXISTS bench');
  await db.query(
    'CREATE OR REPLACE FUNCTION bench.drop_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$',
  );
  await db.query(
    'CREATE TRIGGER bench_events_off BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION bench.drop_event()',
  );
}

const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);

export async function measureEventCost(o: {
  db: Database;
  env: Env;
  serverEnv: Record<string, string>;
  nodeArgs: string[];
  opts: RunOptions;
  resultsDir: string;
  rounds?: number;
}): Promise<EventCostReport> {
  const scenario = createAppointment();
  await scenario.setup(o.env);
  const order: Array<'on' | 'off'> = [];
  for (let r = 0; r < (o.rounds ?? 2); r++)
    order.push(...(r % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)));
  const phases: EventCostPhase[] = [];
  for (const [k, mode] of order.entries()) {
    await eventsOff(o.db, mode === 'off');
    const server = await startChild('src/server.ts', o.serverEnv, { nodeArgs: o.nodeArgs, readyPath: '/healthz' });
    const rss = new RssSampler(server.pid);
    const count = async () => (await o.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0].n;
    const before = await count();
    try {
      const report = await runScenario(scenario, {
        server,
        rss,
        db: o.db,
        env: o.env,
        opts: { ...o.opts, limit: false, explain: false, steady: [] },
        resultsDir: o.resultsDir,
        tag: `events-${mode}-${k + 1}`,
      });
      if (!report.http) throw new Error(`create not available: ${report.note ?? ''}`);
      const after = await count();
      phases.push({
        mode,
        rps: report.http.rps,
        p50: report.http.p50,
        p99: report.http.p99,
        eventsWritten: after - before,
      });
      console.log(
        `  create with events ${mode}: ${report.http.rps} req/s, p50 ${report.http.p50} ms, p99 ${report.http.p99} ms, ${after - before} events written`,
      );
    } finally {
      rss.stop();
      await server.stop();
      await eventsOff(o.db, false);
    }
  }
  const side = (mode: 'on' | 'off') => {
    const ps = phases.filter((p) => p.mode === mode);
    return { rps: mean(ps.map((p) => p.rps)), p99: Math.max(...ps.map((p) => p.p99)) };
  };
  const on = side('on');
  const off = side('off');
  return { phases, on, off, cost: Math.round((1 - on.rps / off.rps) * 1000) / 1000 };
}
