// GET /metrics (issue 29, src/platform/metrics/): off unless METRICS_TOKEN is set, then only with that
// bearer token; a real scrape after real requests carries their counts by route template and status
// class, the pools, the replica's names, the availability cache, the backlog and the feed lag, and
// passes `promtool check metrics`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { startTestApp } from '../support/app.ts';
import { emit } from '../../src/events/outbox.ts';
import { shop, search } from '../bookings/online/helpers.ts';
import type { App } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const PROMTOOL = '/usr/bin/promtool';
const t = await startTestApp({ env: { METRICS_TOKEN: TOKEN } });

async function scrape(app: App = t.app, token = TOKEN) {
  return app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
}

/** The value of one sample: name and exact labels (all of them, in any order). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]),
    );
    if (JSON.stringify(Object.entries(found).sort()) === JSON.stringify(Object.entries(labels).sort()))
      return Number(m[3]);
  }
  return undefined;
}

const READ = '/api/v1/bookings/appointments/:appointmentId';

test('requests are counted by route template and status class: counts rise by the requests made', async () => {
  const storeId = (await t.fx.store()).id;
  const merchant = await t.fx.merchantToken(storeId);
  const before = (await scrape()).body;
  const count = (text: string, route: string, statusClass: string) =>
    sample(text, 'bbo_http_request_duration_seconds_count', { method: 'GET', route, status_class: statusClass }) ?? 0;

  // Three reads of appointments that do not exist (404), two without a token (401): one route, two classes.
  for (let i = 0; i < 3; i++) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/bookings/appointments/${randomUUID()}`,
      headers: { authorization: `Bearer ${merchant}` },
    });
    assert.equal(res.statusCode, 404);
  }
  for (let i = 0; i < 2; i++)
    assert.equal(
      (await t.app.inject({ method: 'GET', url: `/api/v1/bookings/appointments/${randomUUID()}` })).statusCode,
      401,
    );
  // Four searches that answer 200, with a query string that must not appear anywhere.
  for (let i = 0; i < 4; i++) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/customers/search?store_id=${storeId}&q=ada.lovelace%40example.com`,
      headers: { authorization: `Bearer ${merchant}` },
    });
    assert.equal(res.statusCode, 200, res.body);
  }
  // A path no route matches is labelled "unmatched", never by its URL.
  assert.equal((await t.app.inject({ method: 'GET', url: `/no/such/path/${randomUUID()}` })).statusCode, 404);

  const after = await scrape();
  assert.equal(after.statusCode, 200);
  assert.match(String(after.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  const text = after.body;
  assert.equal(count(text, READ, '4xx') - count(before, READ, '4xx'), 5);
  assert.equal(count(text, READ, '2xx') - count(before, READ, '2xx'), 0);
  assert.equal(count(text, '/api/v1/customers/search', '2xx') - count(before, '/api/v1/customers/search', '2xx'), 4);
  assert.equal(count(text, 'unmatched', '4xx') - count(before, 'unmatched', '4xx'), 1);
  // The scrape before this one was counted too.
  assert.ok(count(text, '/metrics', '2xx') >= 1);
  // The histogram's buckets are cumulative: the +Inf bucket holds every request of the series.
  assert.equal(
    sample(text, 'bbo_http_request_duration_seconds_bucket', {
      method: 'GET',
      route: '/api/v1/customers/search',
      status_class: '2xx',
      le: '+Inf',
    }),
    count(text, '/api/v1/customers/search', '2xx'),
  );
  // No raw URL, id, query or address in any label.
  assert.doesNotMatch(text, /ada\.lovelace|example\.com|\/no\/such|appointments\/[0-9a-f]{8}-/);
  assert.doesNotMatch(text, new RegExp(storeId));
});

test("the availability cache's hits, misses and bytes follow the searches", async () => {
  const w = await shop({ t });
  const before = (await scrape()).body;
  const hits0 = sample(before, 'bbo_availability_cache_hits_total')!;
  const misses0 = sample(before, 'bbo_availability_cache_misses_total')!;
  await search(w, { from_date: '2026-06-02', to_date: '2026-06-03' });
  await search(w, { from_date: '2026-06-02', to_date: '2026-06-03' });
  await search(w, { from_date: '2026-06-02', to_date: '2026-06-03' });
  const text = (await scrape()).body;
  assert.equal(sample(text, 'bbo_availability_cache_misses_total')! - misses0, 1, 'the first search computes');
  assert.equal(sample(text, 'bbo_availability_cache_hits_total')! - hits0, 2, 'the next two are served from it');
  assert.ok(sample(text, 'bbo_availability_cache_bytes')! > 0);
});

test("the backlog (webhook deliveries, messages) and the feed consumers' lag are read from the database", async () => {
  // A fresh app: the backlog is kept 5 s, so this one's first scrape reads what is set up here.
  const u = await startTestApp({ env: { METRICS_TOKEN: TOKEN }, now: '2026-06-01T09:00:00Z' });
  const storeId = (await u.fx.store()).id;
  const now = u.clock.now().toISOString();
  // Events the (not running) dispatcher and planner have not passed: the oldest was written 90 s ago.
  await emit(u.db, { storeId, type: 'customer.created', data: {} } as any, new Date(u.clock.now().getTime() - 90_000));
  await emit(u.db, { storeId, type: 'customer.created', data: {} } as any, u.clock.now());
  const ep = (
    await u.db.query(
      `INSERT INTO webhook_endpoints (store_id, url, secret, created_at, updated_at) VALUES ($1, 'https://example.test/h', 'whsec_x', $2, $2) RETURNING id`,
      [storeId, now],
    )
  ).rows[0].id;
  const delivery = (status: string, attempts: number, next: string) =>
    u.db.query(
      `INSERT INTO webhook_deliveries (endpoint_id, store_id, event_id, event_type, status, attempts, next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, gen_random_uuid(), 'customer.created', $3, $4, $5, $6, $6)`,
      [ep, storeId, status, attempts, next, now],
    );
  await delivery('pending', 0, '2026-06-01T08:59:00Z'); // due, never tried
  await delivery('pending', 2, '2026-06-01T08:59:30Z'); // due, retrying
  await delivery('pending', 1, '2026-06-01T10:00:00Z'); // retrying, not due yet
  await delivery('failed', 9, '2026-05-31T09:00:00Z');
  await delivery('delivered', 1, '2026-05-31T09:00:00Z');
  const message = (status: string, due: string, lastError: string | null, reason: string | null) =>
    u.db.query(
      `INSERT INTO messages (store_id, kind, subject_id, version, channel, category, to_address, subject, body_text, body_html,
                             message_id, status, reason, due_at, last_error, attempts, created_at, updated_at)
       VALUES ($1, 'reminder', gen_random_uuid(), 'v1', 'email', 'reminders', 'x@example.test', 's', 'b', 'b', gen_random_uuid()::text,
               $2, $3, $4, $5, $6, $7, $7)`,
      [storeId, status, reason, due, lastError, lastError ? 1 : 0, now],
    );
  await message('pending', '2026-06-01T08:00:00Z', null, null); // due
  await message('pending', '2026-06-01T08:30:00Z', 'smtp_421', null); // due and retrying
  await message('pending', '2026-06-02T08:00:00Z', null, null); // later
  await message('failed', '2026-06-01T07:00:00Z', 'smtp_550', 'rejected');
  await message('failed', '2026-06-01T07:00:00Z', 'smtp_550', 'rejected');

  const text = (await scrape(u.app)).body;
  assert.equal(sample(text, 'bbo_webhook_deliveries', { state: 'due' }), 2);
  assert.equal(sample(text, 'bbo_webhook_deliveries', { state: 'retrying' }), 2);
  assert.equal(sample(text, 'bbo_webhook_deliveries', { state: 'failed' }), 1);
  assert.equal(sample(text, 'bbo_messages', { state: 'due' }), 2);
  assert.equal(sample(text, 'bbo_messages', { state: 'retrying' }), 1);
  assert.equal(sample(text, 'bbo_messages', { state: 'failed' }), 2);
  assert.equal(sample(text, 'bbo_event_feed_lag_seconds', { consumer: 'webhook_dispatcher' }), 90);
  assert.equal(sample(text, 'bbo_event_feed_lag_seconds', { consumer: 'message_planner' }), 90);

  // The consumers pass every event: caught up, 0. (The answer is kept 5 s: a new app reads afresh.)
  await u.db.query(
    `UPDATE webhook_dispatch_cursor SET txid = (SELECT max(txid) FROM events), seq = (SELECT max(seq) FROM events)`,
  );
  await u.db.query(
    `UPDATE message_planner_cursor SET txid = (SELECT max(txid) FROM events), seq = (SELECT max(seq) FROM events)`,
  );
  const kept = (await scrape(u.app)).body;
  assert.equal(
    sample(kept, 'bbo_event_feed_lag_seconds', { consumer: 'webhook_dispatcher' }),
    90,
    'a scrape within 5 s is answered from the kept read',
  );
  const v = await startTestApp({ env: { METRICS_TOKEN: TOKEN } });
  assert.equal(sample((await scrape(v.app)).body, 'bbo_event_feed_lag_seconds', { consumer: 'webhook_dispatcher' }), 0);
});

test("pools, the replica's names (with no replica) and the process metrics are present", async () => {
  const text = (await scrape()).body;
  const pool = (t.db as { pool?: { totalCount: number; idleCount: number; waitingCount: number } }).pool;
  if (pool) {
    // A pool of the server engine reports its own counts.
    assert.equal(sample(text, 'bbo_db_pool_connections', { pool: 'primary' }), pool.totalCount);
    assert.ok(pool.totalCount >= 1);
    assert.equal(sample(text, 'bbo_db_pool_waiting_requests', { pool: 'primary' }), 0);
    assert.ok(sample(text, 'bbo_db_pool_idle_connections', { pool: 'primary' })! >= 0);
  } else {
    assert.match(text, /# TYPE bbo_db_pool_connections gauge/);
  }
  assert.equal(sample(text, 'bbo_replica_up'), 0);
  assert.ok(Number.isNaN(sample(text, 'bbo_replica_lag_seconds')));
  assert.equal(sample(text, 'bbo_read_requests_total', { served: 'replica' }), 0);
  assert.equal(sample(text, 'bbo_read_requests_total', { served: 'primary' }), 0);
  assert.ok(sample(text, 'process_cpu_user_seconds_total')! > 0);
  assert.ok(sample(text, 'nodejs_heap_size_used_bytes')! > 0);
});

test('promtool check metrics passes on a real scrape', () => {
  // .ci/run installs Debian's prometheus package: without promtool this fails, it does not skip.
  return scrape().then((res) => {
    const run = spawnSync(PROMTOOL, ['check', 'metrics'], { input: res.body, encoding: 'utf8' });
    assert.equal(run.error, undefined, `${PROMTOOL} could not run: ${run.error?.message}`);
    assert.equal(run.status, 0, `promtool check metrics: ${run.stdout}${run.stderr}`);
    assert.equal(run.stdout + run.stderr, '', 'no lint findings');
  });
});

test('without the token, or with another one, the answer is 401 in the error envelope', async () => {
  const merchant = await t.fx.merchantToken((await t.fx.store()).id);
  const cases: Array<Record<string, string>> = [
    {},
    { authorization: `Bearer ${TOKEN}x` },
    { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
    { authorization: `Bearer ${merchant}` },
    { authorization: `Bearer ${'test-admin-token-0123456789'}` },
    { authorization: TOKEN },
  ];
  for (const headers of cases) {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
    assert.equal(res.statusCode, 401, JSON.stringify(headers));
    const body = JSON.parse(res.body);
    assert.equal(body.error.code, 'UNAUTHENTICATED');
    assert.equal(body.error.requestId, res.headers['x-request-id']);
    assert.doesNotMatch(res.body, /bbo_|process_/);
  }
});

test('without METRICS_TOKEN there is no /metrics: 404 like an unknown path, and it is not in the OpenAPI document', async () => {
  const off = await startTestApp();
  const res = await off.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  const unknown = await off.app.inject({ method: 'GET', url: '/no-such-route' });
  assert.equal(res.statusCode, 404);
  assert.equal(JSON.parse(res.body).error.code, JSON.parse(unknown.body).error.code);
  assert.equal(off.app.metrics, null);
  const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/openapi.json' })).body);
  assert.equal(doc.paths['/metrics'], undefined);
});

test('METRICS_TOKEN shorter than 16 characters, or not a bearer token, is refused at start', () => {
  const base = { AUTH_SECRET: 'test-secret-0123456789-0123456789-abcdef' };
  assert.throws(
    () => loadConfig({ ...base, METRICS_TOKEN: 'short-token' }),
    /METRICS_TOKEN must be at least 16 characters/,
  );
  assert.throws(
    () => loadConfig({ ...base, METRICS_TOKEN: 'has spaces in it 0123456789' }),
    /METRICS_TOKEN must be a bearer token/,
  );
  assert.equal(loadConfig(base).metrics.token, null);
  assert.equal(loadConfig({ ...base, METRICS_TOKEN: TOKEN }).metrics.token, TOKEN);
});
