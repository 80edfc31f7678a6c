// Latency at a steady rate: an open-loop load with evenly spaced arrivals, one request every
// 1000 / rate ms, whatever the answers do (a loop that waits until start + i * 1000 / rate and
// sends every request that is due). autocannon's overallRate sends each second's budget in a burst
// at the start of the second, so its percentiles measure the burst's own queueing (MEASURED.md).
//
// A request's latency is counted from its SCHEDULED send time, not from when it actually went out:
// if the server (or this generator) falls behind, the requests that should already have been sent
// are charged the wait too. Measuring from the actual send would hide exactly the stalls a steady
// arrival rate is meant to expose (coordinated omission). The lag of the actual sends behind the
// schedule is reported too, so a generator that cannot keep up is visible.
import http from 'node:http';
import { tallyInto, type WireRequest } from './load.ts';

export interface OpenLoopResult {
  rate: number;
  requests: number;
  /** Completed per second over the phase: equals rate when the server keeps up. */
  achievedRps: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
  /** The generator's own lateness sending (p99 of actual - scheduled), ms. */
  sendLagP99: number;
  outcomes: Record<string, number>;
  unexpected: number;
}

export async function openLoop(
  baseUrl: string,
  opts: {
    rate: number;
    duration: number;
    make: () => WireRequest;
    isExpected: (outcome: string) => boolean;
    errorCodes: boolean;
  },
): Promise<OpenLoopResult> {
  const url = new URL(baseUrl);
  // Sockets are opened as needed and kept: at a steady rate only as many as are in flight.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const interval = 1000 / opts.rate;
  const total = Math.max(1, Math.round(opts.rate * opts.duration));
  const latencies: number[] = [];
  const lags: number[] = [];
  const outcomes: Record<string, number> = {};
  const tally = tallyInto(outcomes);
  const inflight = new Set<Promise<void>>();

  const send = (scheduled: number): Promise<void> => {
    const req = opts.make();
    lags.push(performance.now() - scheduled);
    return new Promise<void>((resolve) => {
      const r = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.path,
          headers: req.body ? { ...req.headers, 'content-length': Buffer.byteLength(req.body) } : req.headers,
          agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          const keep = opts.errorCodes && (res.statusCode ?? 0) >= 300;
          res.on('data', (c: Buffer) => {
            if (keep) chunks.push(c);
          });
          res.on('end', () => {
            latencies.push(performance.now() - scheduled);
            // Without the body (error codes not asked for) a refusal counts by its status alone.
            tally(res.statusCode ?? 0, keep ? Buffer.concat(chunks).toString() : '');
            resolve();
          });
        },
      );
      r.on('error', (err) => {
        latencies.push(performance.now() - scheduled);
        const key = `error ${(err as NodeJS.ErrnoException).code ?? err.message}`;
        outcomes[key] = (outcomes[key] ?? 0) + 1;
        resolve();
      });
      if (req.body) r.write(req.body);
      r.end();
    });
  };

  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    // Sleep until due, never spin (spinning takes a core from the server on this machine); a timer
    // wakes up to ~1 ms late, which is charged to the request (sendLagP99 shows how much).
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const p = send(due);
    inflight.add(p);
    p.then(() => inflight.delete(p));
  }
  await Promise.all(inflight);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();

  latencies.sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  const pct = (xs: number[], p: number) =>
    xs.length ? Math.round(xs[Math.min(xs.length - 1, Math.floor(xs.length * p))] * 100) / 100 : NaN;
  let unexpected = 0;
  for (const [o, n] of Object.entries(outcomes)) if (!/^2\d\d$/.test(o) && !opts.isExpected(o)) unexpected += n;
  return {
    rate: opts.rate,
    requests: latencies.length,
    achievedRps: Math.round(latencies.length / elapsed),
    p50: pct(latencies, 0.5),
    p99: pct(latencies, 0.99),
    p999: pct(latencies, 0.999),
    max: pct(latencies, 1),
    sendLagP99: pct(lags, 0.99),
    outcomes,
    unexpected,
  };
}
