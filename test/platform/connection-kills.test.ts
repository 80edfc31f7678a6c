// Issue 47's finding: in the Patroni drill a server process EXITED mid-storm once the primary's
// PostgreSQL was killed (its backends, outliving the postmaster for a moment, sent 57P01 to every
// session). Here the same thing, as often as we like, without Patroni: every session of the service's
// database is terminated (pg_terminate_backend, 57P01 to each) while a real `node src/server.ts` with
// its webhook and messages workers, the read router (DATABASE_READ_URL) and an open event stream
// serves a mix of requests. The process must live through every round, answer each request (2xx, or
// 503 SERVICE_UNAVAILABLE in the envelope with Retry-After, never a 500 or no answer), and reconnect by
// itself: the first request after each round is answered 2xx within seconds, with no restart.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openTestDatabase } from '../support/engine.ts';
import { freePort, ServerProcess } from '../../reliability/server-process.ts';
import { errorCodeOf, http, isEnvelope, type HttpResult } from '../../reliability/client.ts';
import { connectSse } from '../../reliability/sse-client.ts';
import { insertStore, insertUnits, merchantToken } from '../../reliability/seed.ts';
import { AUTH_SECRET } from '../../reliability/env.ts';

const ROUNDS = 8;
const CLIENTS = 6;
const METRICS_TOKEN = 'connection-kills-metrics-token';

const database = await openTestDatabase();
const server = new ServerProcess({
  databaseUrl: database.url,
  port: await freePort(),
  name: 'killed-sessions server',
  env: {
    AUTH_SECRET,
    METRICS_TOKEN,
    DATABASE_READ_URL: database.url,
    DB_READ_POLL_MS: '200',
    RATE_LIMIT_GLOBAL_PER_MIN: '10000000',
    DB_POOL_SIZE: '6',
    LOG_LEVEL: 'warn',
  },
});
after(async () => {
  await server.kill();
  await database.close();
});

test('every session of the database terminated (57P01), round after round, mid-storm: the process lives, answers 2xx or 503, and reconnects by itself', {
  timeout: 240_000,
}, async () => {
  await server.spawn();
  const store = await insertStore(database.db, 'Killed Sessions Salon');
  const units = await insertUnits(database.db, store, CLIENTS);
  const token = await merchantToken(store);
  const dbName = new URL(database.url).pathname.slice(1);

  const bad: string[] = [];
  const counts = { ok: 0, unavailable: 0 };
  const judge = (what: string, r: HttpResult) => {
    if (r.status >= 200 && r.status < 300) counts.ok++;
    else if (
      r.status === 503 &&
      r.headers?.get('retry-after') &&
      isEnvelope(r.body) &&
      errorCodeOf(r) === 'SERVICE_UNAVAILABLE'
    )
      counts.unavailable++;
    else if (r.status === 409 && errorCodeOf(r) === 'IDEMPOTENCY_IN_PROGRESS') counts.unavailable++;
    else bad.push(`${what}: ${r.status} ${r.error ?? ''} ${JSON.stringify(r.body).slice(0, 200)}`);
  };

  // An open live stream: the process's event pump polls the feed all along.
  const stream = await connectSse(server.baseUrl, `/api/v1/events/stream?store_id=${store}`, {
    authorization: `Bearer ${token}`,
  });
  assert.equal(stream.status, 200);

  let stopped = false;
  let slot = 0;
  const client = async (c: number) => {
    while (!stopped) {
      const start = Date.parse('2032-01-05T00:00:00Z') + slot++ * 3600_000;
      const body = {
        store_id: store,
        unit_id: units[c],
        starts_at: new Date(start).toISOString(),
        ends_at: new Date(start + 30 * 60_000).toISOString(),
        price_pence: 1000,
        guest_email: 'kills@example.com',
        client_token: randomUUID(),
      };
      judge(
        'create',
        await http(server.baseUrl, 'POST', '/api/v1/bookings/appointments', {
          token,
          body,
          idempotencyKey: randomUUID(),
          timeoutMs: 20_000,
        }),
      );
      judge(
        'feed',
        await http(server.baseUrl, 'GET', `/api/v1/events?store_id=${store}&limit=20`, { token, timeoutMs: 20_000 }),
      );
      judge('metrics', await http(server.baseUrl, 'GET', '/metrics', { token: METRICS_TOKEN, timeoutMs: 20_000 }));
    }
  };
  const storm = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));

  const admin = new pg.Client({ connectionString: database.url });
  admin.on('error', () => {});
  await admin.connect();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      await new Promise((resolve) => setTimeout(resolve, 400 + (round % 3) * 150));
      // Twice in quick succession: the second catches connections opened in answer to the first.
      for (let i = 0; i < 2; i++) {
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [dbName],
        );
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      assert.ok(
        server.running,
        `the process is alive after round ${round + 1}:\n${server.output.slice(-15).join('\n')}`,
      );
      // It reconnects by itself: a read answers 2xx within a few seconds.
      const deadline = Date.now() + 10_000;
      let recovered = false;
      let last: HttpResult | null = null;
      while (!recovered && Date.now() < deadline) {
        const r = (last = await http(server.baseUrl, 'GET', `/api/v1/events?store_id=${store}&limit=1`, {
          token,
          timeoutMs: 20_000,
        }));
        recovered = r.status === 200;
        if (!recovered) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(
        recovered,
        `a read answers 2xx after round ${round + 1} (last: ${last?.status} ${last?.error ?? ''} ${JSON.stringify(last?.body).slice(0, 200)}; running ${server.running}):\n${server.output.slice(-70).join('\n')}`,
      );
    }
    // Workers and sweeps run on their own timers: give them a moment on the reconnected pools.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  } finally {
    stopped = true;
    await storm;
    stream.close();
    await admin.end().catch(() => {});
  }

  assert.ok(server.running, `the process is alive at the end:\n${server.output.slice(-15).join('\n')}`);
  assert.deepEqual(bad, [], 'every request answered 2xx or 503 SERVICE_UNAVAILABLE with Retry-After');
  assert.ok(
    counts.ok > ROUNDS * 2,
    `requests succeeded between the rounds (${counts.ok} ok, ${counts.unavailable} unavailable)`,
  );
  const crashes = server.output.filter((line) =>
    /uncaught|unhandled|triggerUncaughtException|node:internal\/process/i.test(line),
  );
  assert.deepEqual(crashes, [], 'no uncaught error in the process output');
  const metrics = await http(server.baseUrl, 'GET', '/metrics', { token: METRICS_TOKEN });
  assert.equal(metrics.status, 200);
  assert.match(
    String(metrics.body),
    /^bbo_db_connections_dropped_total\{pool="primary"\} [1-9]\d*$/m,
    'the dropped connections are counted',
  );
});
