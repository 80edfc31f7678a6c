// Webhook delivery bench (PostgreSQL server only), part of `npm run bench`; alone:
//   node bench/webhooks.ts [--database-url URL] [--events 20000] [--rate 200] [--seconds 10]
// It runs on its own database, bbo_bench_webhooks, created fresh on the same server and dropped
// afterwards (the bench dataset is left alone).
//
// The service runs as `npm start` does (src/server.ts, worker embedded) with a receiver on 127.0.0.1
// (in this process) behind 8 endpoints of 8 stores.
//  1. throughput: N events committed at once (one INSERT); deliveries/s until the receiver has had
//     them all;
//  2. lag: appointment creates through the API at a steady rate (evenly spaced, open loop). The lag of
//     each event is its arrival at the receiver minus the moment the create's answer arrived here
//     (the answer leaves right after the commit, so this is commit-to-receiver give or take the
//     answer's own trip; it can be slightly negative). Also reported: arrival minus occurred_at (the
//     create's clock reading at the start of its request, so it includes the create's own latency).
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { withScratchDatabase } from './harness/scratch-database.ts';
import { openPg } from '../src/platform/db/pg.adapter.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { TokenMint } from './harness/tokens.ts';
import { startChild } from './harness/server.ts';

const STORES = 8;
const UNITS = 10;

export interface WebhookBenchResult {
  endpoints: number;
  throughput: { events: number; deliveries: number; seconds: number; perSecond: number };
  lag: {
    rate: number;
    seconds: number;
    writes: number;
    writeErrors: number;
    delivered: number;
    p50: number;
    p99: number;
    max: number;
  };
  /** Arrival minus occurred_at (includes the create's own time), and the creates' own latency. */
  fromRequest: { p50: number; p99: number };
  createLatency: { p50: number; p99: number };
  loadavg: { before: number[]; after: number[] };
}

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function startReceiver() {
  let count = 0;
  /** appointment id -> arrival; and arrival minus occurred_at. */
  const arrivals = new Map<string, number>();
  const fromRequest: number[] = [];
  let trackLag = false;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      count++;
      if (trackLag) {
        const at = Date.now();
        try {
          const ev = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          fromRequest.push(at - Date.parse(ev.occurred_at));
          if (ev.data?.id) arrivals.set(ev.data.id, at);
        } catch {
          /* not an event */
        }
      }
      res.writeHead(204);
      res.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (i: number) => `http://127.0.0.1:${port}/hook/${i}`,
    get count() {
      return count;
    },
    arrivals,
    fromRequest,
    track(on: boolean) {
      trackLag = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function waitFor(what: string, ok: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`webhook bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function runWebhookBench(o: {
  databaseUrl: string;
  nodeArgs?: string[];
  events?: number;
  rate?: number;
  seconds?: number;
}): Promise<WebhookBenchResult> {
  const events = o.events ?? 20_000;
  const rate = o.rate ?? 200;
  const seconds = o.seconds ?? 10;
  const loadBefore = os.loadavg();
  const db = openPg({ connectionString: o.databaseUrl, poolSize: 4 });
  const rx = await startReceiver();
  const secret = randomBytes(32).toString('hex');
  const mint = new TokenMint(secret);
  let server: Awaited<ReturnType<typeof startChild>> | null = null;
  try {
    await migrate(db);
    // Earlier runs' endpoints would receive this run's events too: remove them.
    await db.query(
      "DELETE FROM webhook_endpoints WHERE store_id IN (SELECT id FROM stores WHERE name LIKE 'Bench Webhooks %')",
    );
    // The dispatcher starts at the end of the existing history (no endpoint wants older events).
    await db.query(
      'UPDATE webhook_dispatch_cursor c SET txid = e.txid, seq = e.seq FROM (SELECT txid, seq FROM events ORDER BY txid DESC, seq DESC LIMIT 1) e',
    );
    const stores: Array<{ id: string; units: string[] }> = [];
    for (let i = 0; i < STORES; i++) {
      const s = await db.query<{ id: string }>(
        `INSERT INTO stores (name, timezone, currency, walkin_mode, called_hold_minutes, cancellation_window_min)
         VALUES ($1, 'Europe/London', 'GBP', 'mixed', 10, 0) RETURNING id`,
        [`Bench Webhooks ${i} ${Date.now()}`],
      );
      const u = await db.query<{ id: string }>(
        `INSERT INTO units (store_id, display_name, kind, sort) SELECT $1, 'Chair ' || g, 'staff', g FROM generate_series(1, $2::int) g RETURNING id`,
        [s.rows[0].id, UNITS],
      );
      stores.push({ id: s.rows[0].id, units: u.rows.map((r) => r.id) });
    }
    server = await startChild(
      'src/server.ts',
      {
        DATABASE_URL: o.databaseUrl,
        AUTH_SECRET: secret,
        LOG_LEVEL: 'warn',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        RATE_LIMIT_GLOBAL_PER_MIN: '10000000',
      },
      { nodeArgs: o.nodeArgs, readyPath: '/readyz' },
    );
    for (const [i, s] of stores.entries()) {
      const res = await fetch(`${server.url}/api/v1/webhooks/endpoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await mint.merchant(s.id)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: rx.url(i) }),
      });
      if (res.status !== 200) throw new Error(`registering an endpoint: ${res.status} ${await res.text()}`);
    }

    // 1. Throughput: a backlog committed at once.
    const perStore = Math.ceil(events / STORES);
    const t0 = performance.now();
    await db.query(
      `INSERT INTO events (store_id, type, occurred_at, occurred_at_local, timezone, data)
       SELECT s.id, 'appointment.created', now(), to_char(now() AT TIME ZONE 'Europe/London', 'YYYY-MM-DD"T"HH24:MI:SS'), 'Europe/London',
              jsonb_build_object('id', gen_random_uuid(), 'status', 'confirmed', 'n', g)
         FROM unnest($1::uuid[]) AS s(id), generate_series(1, $2::int) g`,
      [stores.map((s) => s.id), perStore],
    );
    const total = perStore * STORES;
    await waitFor(`${total} deliveries`, () => rx.count >= total, 300_000);
    const tSeconds = (performance.now() - t0) / 1000;

    // 2. Lag at a steady write rate.
    await new Promise((r) => setTimeout(r, 500));
    const base = rx.count;
    rx.track(true);
    const writes = rate * seconds;
    const start = performance.now();
    const day0 = Date.parse('2032-01-01T00:00:00Z');
    let writeErrors = 0;
    const answered = new Map<string, number>();
    const latencies: number[] = [];
    const pending: Promise<void>[] = [];
    for (let i = 0; i < writes; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const s = stores[i % STORES];
      const k = Math.floor(i / STORES);
      const begins = day0 + Math.floor(k / UNITS) * 3600_000;
      const body = {
        store_id: s.id,
        unit_id: s.units[k % UNITS],
        starts_at: new Date(begins).toISOString(),
        ends_at: new Date(begins + 1800_000).toISOString(),
        guest_name: 'Bench',
        guest_email: 'bench@example.org',
      };
      const token = await mint.merchant(s.id);
      const sent = Date.now();
      pending.push(
        fetch(`${server.url}/api/v1/bookings/appointments`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then(
          async (r) => {
            const json = (await r.json()) as any;
            const at = Date.now();
            latencies.push(at - sent);
            if (r.status !== 200) writeErrors++;
            else answered.set(json.appointment.id, at);
          },
          () => void writeErrors++,
        ),
      );
    }
    await Promise.all(pending);
    const expected = writes - writeErrors;
    await waitFor(`${expected} lag deliveries`, () => rx.count - base >= expected, 60_000).catch(() => {});
    rx.track(false);
    const lags: number[] = [];
    for (const [id, at] of answered) {
      const arrived = rx.arrivals.get(id);
      if (arrived !== undefined) lags.push(arrived - at);
    }
    lags.sort((a, b) => a - b);
    const fromReq = [...rx.fromRequest].sort((a, b) => a - b);
    latencies.sort((a, b) => a - b);
    return {
      endpoints: STORES,
      throughput: {
        events: total,
        deliveries: total,
        seconds: Math.round(tSeconds * 100) / 100,
        perSecond: Math.round(total / tSeconds),
      },
      lag: {
        rate,
        seconds,
        writes,
        writeErrors,
        delivered: lags.length,
        p50: pct(lags, 50),
        p99: pct(lags, 99),
        max: lags[lags.length - 1] ?? NaN,
      },
      fromRequest: { p50: pct(fromReq, 50), p99: pct(fromReq, 99) },
      createLatency: { p50: pct(latencies, 50), p99: pct(latencies, 99) },
      loadavg: { before: loadBefore, after: os.loadavg() },
    };
  } finally {
    await server?.stop();
    await rx.close();
    await db.close();
  }
}

export function describeWebhookBench(r: WebhookBenchResult): string {
  return [
    `webhooks: ${r.throughput.perSecond} deliveries/s (${r.throughput.deliveries} deliveries to ${r.endpoints} endpoints on one local receiver in ${r.throughput.seconds} s)`,
    `webhooks: lag commit-to-receiver at ${r.lag.rate} creates/s for ${r.lag.seconds} s: p50 ${r.lag.p50} ms, p99 ${r.lag.p99} ms, max ${r.lag.max} ms (${r.lag.delivered} of ${r.lag.writes} writes delivered, ${r.lag.writeErrors} write errors)`,
    `webhooks: from the create's request start (includes its own latency): p50 ${r.fromRequest.p50} ms, p99 ${r.fromRequest.p99} ms; create latency p50 ${r.createLatency.p50} ms, p99 ${r.createLatency.p99} ms`,
    `webhooks: load average before ${r.loadavg.before.map((x) => x.toFixed(1)).join(' ')}, after ${r.loadavg.after.map((x) => x.toFixed(1)).join(' ')}`,
  ].join('\n');
}

/** Runs the bench on its own database (bbo_bench_webhooks, created fresh and dropped) on the server of serverUrl. */
export async function runOnOwnDatabase(
  serverUrl: string,
  o: { nodeArgs?: string[]; events?: number; rate?: number; seconds?: number } = {},
): Promise<WebhookBenchResult> {
  return withScratchDatabase(serverUrl, 'bbo_bench_webhooks', (databaseUrl) => runWebhookBench({ ...o, databaseUrl }));
}

// Alone: node bench/webhooks.ts (its own database on the server of DATABASE_URL / TEST_DATABASE_URL).
if (import.meta.main) {
  const { parseArgs, num, str } = await import('./lib/args.ts');
  const args = parseArgs();
  const server = str(args, 'database-url') ?? process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!server) throw new Error('set --database-url, DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL server)');
  console.log(
    `webhook bench: PostgreSQL server ${new URL(server).host}, node ${process.version}, ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  const result = await runOnOwnDatabase(server, {
    events: num(args, 'events', 20_000),
    rate: num(args, 'rate', 200),
    seconds: num(args, 'seconds', 10),
  });
  console.log(describeWebhookBench(result));
  console.log(JSON.stringify(result));
}
