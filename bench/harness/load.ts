// The two load drivers, both at a fixed concurrency for a fixed time:
//  - httpLoad: autocannon against the running service (every request built by the scenario, with its
//    own token and Idempotency-Key), tallying error codes so expected conflicts can be told apart;
//  - directLoad: the same work issued straight to the database, `concurrency` loops in this process.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';

/**
 * An Idempotency-Key as real clients make one (console/src/api.ts, booking-page/src/api.ts): random
 * first. Keys in order would all land on the rightmost leaf of idempotency_records_pkey, a hot page
 * no client makes: in round 12 the claim's lookup took 0.466 ms a create with ordered keys and 0.040
 * ms with these (embedded engine, 16 connections, pg_stat_statements). The label says which run,
 * scenario and request it was.
 */
export const clientKey = (label: string) => `${randomUUID()}-${label}`;

export interface WireRequest {
  method: 'GET' | 'POST' | 'PATCH';
  /** Path with its query string. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The follow-up request built from this one's answer (status, body), or null to end the pair here. */
  then?: (status: number, body: string) => WireRequest | null;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Responses by outcome: "200", "409 SLOT_TAKEN", "error ECONNRESET"... */
  outcomes: Record<string, number>;
  expected: number;
  unexpected: number;
}

/** Counts each answer into outcomes as "200" or, for a refusal, "409 SLOT_TAKEN" (its envelope's code). */
export function tallyInto(outcomes: Record<string, number>) {
  return (status: number, body: string) => {
    let key = String(status);
    if (status >= 300) {
      try {
        key += ' ' + (JSON.parse(body)?.error?.code ?? '');
      } catch {
        // not JSON: the status alone
      }
    }
    outcomes[key] = (outcomes[key] ?? 0) + 1;
  };
}

/** One closed-loop autocannon run of these requests (each connection cycles through them in order). */
function cannon(url: string, opts: { connections: number; duration: number }, requests: unknown[]) {
  return autocannon({ url, connections: opts.connections, duration: opts.duration, timeout: 10, requests });
}

export async function httpLoad(
  url: string,
  opts: {
    connections: number;
    duration: number;
    make: (i: number) => WireRequest;
    isExpected: (outcome: string) => boolean;
    /**
     * Read each answer's body to tell error codes apart (needed only where some refusals are
     * expected, such as 409 SLOT_TAKEN). Off, outcomes are tallied by status alone and the load
     * generator spends no CPU buffering bodies it would not read.
     */
    errorCodes: boolean;
    /** Each make() starts a pair (request, then its follow-up): throughput and latency count pairs. */
    chained?: boolean;
  },
): Promise<LoadResult> {
  if (opts.chained) return chainedLoad(url, opts);
  let i = 0;
  const outcomes: Record<string, number> = {};
  const onResponse = tallyInto(outcomes);
  const result = await cannon(url, opts, [
    {
      setupRequest: (req: Record<string, unknown>) => ({ ...req, ...opts.make(i++) }),
      ...(opts.errorCodes ? { onResponse } : {}),
    },
  ]);
  if (!opts.errorCodes) {
    for (const [status, stat] of Object.entries(result.statusCodeStats ?? {}))
      outcomes[status] = (stat as { count: number }).count;
  }
  if (result.errors) outcomes['connection errors'] = result.errors;
  return summarise(
    result.requests.total,
    result.duration,
    result.latency.p50,
    result.latency.p99,
    outcomes,
    opts.isExpected,
  );
}

// Pairs on one connection: the first request's answer builds the second (autocannon runs a
// connection's requests in order and hands both the same context). Latency is the pair's, from
// building the first request to the second's answer; a first request that fails ends its pair.
async function chainedLoad(
  url: string,
  opts: {
    connections: number;
    duration: number;
    make: (i: number) => WireRequest;
    isExpected: (outcome: string) => boolean;
  },
): Promise<LoadResult> {
  let i = 0;
  const outcomes: Record<string, number> = {};
  const pairs: number[] = [];
  const tally = tallyInto(outcomes);
  const wire = ({ then: _then, ...w }: WireRequest) => w;
  const result = await cannon(url, opts, [
    {
      setupRequest: (req: Record<string, unknown>, ctx: Record<string, any>) => {
        ctx.first = opts.make(i++);
        ctx.t0 = performance.now();
        return { ...req, ...wire(ctx.first) };
      },
      onResponse: (status: number, body: string, ctx: Record<string, any>) => {
        tally(status, body);
        ctx.next = ctx.first?.then?.(status, body) ?? null;
      },
    },
    {
      // No follow-up (the first failed): autocannon starts the next pair instead.
      setupRequest: (req: Record<string, unknown>, ctx: Record<string, any>) =>
        ctx.next ? { ...req, ...wire(ctx.next) } : null,
      onResponse: (status: number, body: string, ctx: Record<string, any>) => {
        tally(status, body);
        pairs.push(performance.now() - ctx.t0);
      },
    },
  ]);
  if (result.errors) outcomes['connection errors'] = result.errors;
  pairs.sort((a, b) => a - b);
  const pct = (p: number) => (pairs.length ? pairs[Math.min(pairs.length - 1, Math.floor(pairs.length * p))] : NaN);
  return summarise(pairs.length, result.duration, pct(0.5), pct(0.99), outcomes, opts.isExpected);
}

export async function directLoad(opts: {
  concurrency: number;
  duration: number;
  run: (i: number) => Promise<unknown>;
  outcomeOf: (err: unknown) => string;
  isExpected: (outcome: string) => boolean;
}): Promise<LoadResult> {
  let i = 0;
  const latencies: number[] = [];
  const outcomes: Record<string, number> = {};
  const started = performance.now();
  const deadline = started + opts.duration * 1000;
  async function worker() {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      let outcome = '200';
      try {
        await opts.run(i++);
      } catch (err) {
        outcome = opts.outcomeOf(err);
      }
      latencies.push(performance.now() - t0);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
  }
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] : NaN;
  return summarise(latencies.length, elapsed, pct(0.5), pct(0.99), outcomes, opts.isExpected);
}

function summarise(
  requests: number,
  seconds: number,
  p50: number,
  p99: number,
  outcomes: Record<string, number>,
  isExpected: (outcome: string) => boolean,
): LoadResult {
  let expected = 0;
  let unexpected = 0;
  for (const [outcome, n] of Object.entries(outcomes)) {
    if (/^2\d\d$/.test(outcome)) continue;
    if (isExpected(outcome)) expected += n;
    else unexpected += n;
  }
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    requests,
    rps: Math.round(requests / seconds),
    p50: round(p50),
    p99: round(p99),
    outcomes,
    expected,
    unexpected,
  };
}
