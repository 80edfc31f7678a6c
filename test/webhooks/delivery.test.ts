// Webhook delivery to a real receiver on 127.0.0.1: signed per Standard Webhooks (verified with the
// package's verify), retried on the published schedule, 410 disables, Retry-After honoured, 3xx is
// a failure, 1 KB of the answer kept, per-endpoint concurrency, manual retry and replay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { startTestApp } from '../support/app.ts';
import { call } from '../support/http.ts';
import { emit } from '../../src/events/outbox.ts';
import type { EventType } from '../../src/events/event-types.ts';
import { WebhookWorker } from '../../src/webhooks/delivery-worker.ts';
import { startReceiver, silentLog } from './receiver.ts';

const BASE = '/api/v1/webhooks/endpoints';
// The clock starts at the real now: a receiver's verify compares webhook-timestamp with its own clock.
const t = await startTestApp({ now: new Date().toISOString(), env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
const rx = await startReceiver();

function worker(settings: Partial<typeof t.config.webhooks> = {}) {
  // random 0.5: the jitter factor is exactly 1, so delays are the schedule's own.
  return new WebhookWorker({ db: t.db, clock: t.clock, log: silentLog, settings: { ...t.config.webhooks, ...settings }, random: () => 0.5 });
}

async function setup(path: string, body: Record<string, unknown> = {}) {
  const store = await t.fx.store();
  const token = await t.fx.merchantToken(store.id);
  const r = await call(t.app, 'POST', BASE, { token, body: { url: rx.url(path), ...body } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return { store, token, endpoint: r.body.endpoint as { id: string; secret: string } };
}

async function emitEvent(storeId: string, type: EventType = 'appointment.created', data: Record<string, unknown> = { id: crypto.randomUUID(), status: 'confirmed' }): Promise<string> {
  await emit(t.db, { storeId, type, data }, t.clock.now());
  const res = await t.db.query<{ id: string }>('SELECT id FROM events WHERE store_id = $1 ORDER BY txid DESC, seq DESC LIMIT 1', [storeId]);
  return res.rows[0].id;
}

const at = (path: string) => rx.received.filter((r) => r.path === path);

async function attemptsOf(endpointId: string) {
  const res = await t.db.query('SELECT attempt, attempted_at, succeeded, http_status, error, response_body, next_retry_at FROM webhook_attempts WHERE endpoint_id = $1 ORDER BY id', [endpointId]);
  return res.rows;
}

async function deliveryOf(endpointId: string) {
  return (await t.db.query('SELECT status, attempts FROM webhook_deliveries WHERE endpoint_id = $1', [endpointId])).rows[0];
}

test('a delivery is the event JSON, signed so that the package verify accepts it, with webhook-id = event id', async () => {
  const { store, endpoint, token } = await setup('/signed');
  const eventId = await emitEvent(store.id, 'appointment.created', { id: 'a1', starts_at: '2026-07-01T10:00:00.000Z' });
  assert.equal(await worker().runOnce(), 1);
  const [r] = at('/signed');
  assert.equal(r.headers['webhook-id'], eventId);
  assert.equal(r.headers['content-type'], 'application/json');
  assert.match(r.headers['webhook-timestamp'], /^\d+$/);
  const verified = new Webhook(endpoint.secret).verify(r.body, r.headers) as any;
  assert.deepEqual(Object.keys(verified), ['id', 'type', 'store_id', 'occurred_at', 'occurred_at_local', 'timezone', 'data']);
  assert.equal(verified.id, eventId);
  assert.equal(verified.type, 'appointment.created');
  assert.equal(verified.store_id, store.id);
  assert.equal(verified.occurred_at, t.clock.now().toISOString());
  assert.equal(verified.data.local_starts_at, '2026-07-01T11:00:00');
  // A tampered body does not verify.
  assert.throws(() => new Webhook(endpoint.secret).verify(r.body.replace('a1', 'a2'), r.headers));
  assert.deepEqual(await deliveryOf(endpoint.id), { status: 'delivered', attempts: 1 });
  const log = await call(t.app, 'GET', `${BASE}/${endpoint.id}/deliveries`, { token });
  assert.equal(log.status, 200);
  assert.equal(log.body.deliveries.length, 1);
  const a = log.body.deliveries[0];
  assert.equal(a.event_id, eventId);
  assert.equal(a.event_type, 'appointment.created');
  assert.equal(a.attempt, 1);
  assert.equal(a.succeeded, true);
  assert.equal(a.http_status, 200);
  assert.equal(a.error, null);
  assert.equal(a.next_retry_at, null);
  assert.equal(a.delivery_status, 'delivered');
  assert.equal(typeof a.duration_ms, 'number');
  // Nothing more is due: the event is not sent twice.
  assert.equal(await worker().runOnce(), 0);
  assert.equal(at('/signed').length, 1);
});

test('only matching types and only the store\'s own events are delivered', async () => {
  const { store, endpoint } = await setup('/typed', { event_types: ['appointment.cancelled'] });
  const other = await t.fx.store();
  await emitEvent(store.id, 'appointment.created');
  const wanted = await emitEvent(store.id, 'appointment.cancelled');
  await emitEvent(other.id, 'appointment.cancelled');
  await worker().runOnce();
  assert.deepEqual(at('/typed').map((r) => r.headers['webhook-id']), [wanted]);
  assert.equal((await t.db.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1', [endpoint.id])).rows[0].n, 1);
});

test('after a rotation both secrets sign for 24 h (space-separated), then only the new one', async () => {
  const { store, endpoint, token } = await setup('/rotated');
  const rotated = await call(t.app, 'POST', `${BASE}/${endpoint.id}/rotate-secret`, { token });
  const fresh = rotated.body.endpoint.secret as string;
  await emitEvent(store.id);
  await worker().runOnce();
  const [r] = at('/rotated');
  assert.equal(r.headers['webhook-signature'].split(' ').length, 2);
  assert.ok(new Webhook(fresh).verify(r.body, r.headers));
  assert.ok(new Webhook(endpoint.secret).verify(r.body, r.headers));

  const saved = t.clock.now();
  t.clock.advance(24 * 3600_000 + 1000);
  try {
    const id = await emitEvent(store.id);
    await worker().runOnce();
    const later = at('/rotated').find((x) => x.headers['webhook-id'] === id)!;
    const ts = new Date(Number(later.headers['webhook-timestamp']) * 1000);
    assert.equal(later.headers['webhook-signature'], new Webhook(fresh).sign(id, ts, later.body));
  } finally {
    t.clock.set(saved);
  }
});

test('a failing receiver is retried on the schedule (5 s, 5 min, 30 min, ...) and given up after the last', async () => {
  const { store, endpoint } = await setup('/failing');
  rx.respond((r) => (r.path === '/failing' ? { status: 500, body: 'boom' } : { status: 200 }));
  const saved = t.clock.now();
  try {
    await emitEvent(store.id);
    const w = worker();
    assert.equal(await w.runOnce(), 1);
    // Not due before its delay.
    t.clock.advance(4_000);
    assert.equal(await w.runOnce(), 0);
    for (const delay of t.config.webhooks.retryScheduleMs) {
      const [last] = (await attemptsOf(endpoint.id)).slice(-1);
      t.clock.set(last.next_retry_at);
      assert.equal(await w.runOnce(), 1);
      void delay;
    }
    const log = await attemptsOf(endpoint.id);
    assert.equal(log.length, 10);
    assert.deepEqual(log.map((a) => a.attempt), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const gaps = log.slice(0, -1).map((a) => Date.parse(a.next_retry_at) - Date.parse(a.attempted_at));
    assert.deepEqual(gaps, [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000]);
    assert.ok(log.every((a) => !a.succeeded && a.http_status === 500 && a.error === 'HTTP 500' && a.response_body === 'boom'));
    assert.equal(log[9].next_retry_at, null);
    assert.deepEqual(await deliveryOf(endpoint.id), { status: 'failed', attempts: 10 });
    assert.equal(at('/failing').length, 10);
    // Every attempt carries the same webhook-id.
    assert.equal(new Set(at('/failing').map((r) => r.headers['webhook-id'])).size, 1);
  } finally {
    t.clock.set(saved);
    rx.respond(() => ({ status: 200 }));
  }
});

test('with jitter, delays stay within 10% of the schedule', async () => {
  const { retryDelayMs } = await import('../../src/webhooks/retry-policy.ts');
  for (const r of [0, 0.25, 0.999]) {
    const d = retryDelayMs([300_000], 1, () => r)!;
    assert.ok(d >= 270_000 && d <= 330_000, String(d));
  }
  assert.equal(retryDelayMs([300_000], 2), null);
});

test('410 Gone disables the endpoint at once and records webhook_endpoint.disabled', async () => {
  const { store, endpoint, token } = await setup('/gone');
  rx.respond((r) => (r.path === '/gone' ? { status: 410 } : { status: 200 }));
  try {
    await emitEvent(store.id);
    await worker().runOnce();
    const row = (await t.db.query('SELECT enabled, disabled_reason FROM webhook_endpoints WHERE id = $1', [endpoint.id])).rows[0];
    assert.deepEqual(row, { enabled: false, disabled_reason: 'gone' });
    assert.deepEqual(await deliveryOf(endpoint.id), { status: 'failed', attempts: 1 });
    const ev = (await t.db.query("SELECT data FROM events WHERE store_id = $1 AND type = 'webhook_endpoint.disabled'", [store.id])).rows;
    assert.equal(ev.length, 1);
    assert.equal(ev[0].data.id, endpoint.id);
    assert.equal(ev[0].data.disabled_reason, 'gone');
    assert.equal(ev[0].data.enabled, false);
    assert.equal('secret' in ev[0].data, false);
    // Later events are not dispatched to it.
    await emitEvent(store.id);
    await worker().runOnce();
    assert.equal(at('/gone').length, 1);
    const list = await call(t.app, 'GET', BASE, { token });
    assert.equal(list.body.endpoints[0].disabled_reason, 'gone');
  } finally {
    rx.respond(() => ({ status: 200 }));
  }
});

test('an endpoint that has failed every attempt for 5 days is disabled, with its event', async () => {
  const { store, endpoint } = await setup('/fivedays');
  rx.respond((r) => (r.path === '/fivedays' ? { status: 503 } : { status: 200 }));
  const saved = t.clock.now();
  try {
    const w = worker();
    await emitEvent(store.id);
    await w.runOnce();
    for (let day = 1; day <= 4; day++) {
      t.clock.advance(24 * 3600_000);
      await emitEvent(store.id);
      await w.runOnce();
      assert.equal((await t.db.query('SELECT enabled FROM webhook_endpoints WHERE id = $1', [endpoint.id])).rows[0].enabled, true, `day ${day}`);
    }
    t.clock.advance(24 * 3600_000);
    await emitEvent(store.id);
    await w.runOnce();
    const row = (await t.db.query('SELECT enabled, disabled_reason FROM webhook_endpoints WHERE id = $1', [endpoint.id])).rows[0];
    assert.deepEqual(row, { enabled: false, disabled_reason: 'failing' });
    const ev = (await t.db.query("SELECT data FROM events WHERE store_id = $1 AND type = 'webhook_endpoint.disabled'", [store.id])).rows;
    assert.equal(ev.length, 1);
    assert.equal(ev[0].data.disabled_reason, 'failing');
    assert.equal((await t.db.query("SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending'", [endpoint.id])).rows[0].n, 0);
  } finally {
    t.clock.set(saved);
    rx.respond(() => ({ status: 200 }));
  }
});

test('a success ends the failure run: an endpoint that recovers is not disabled', async () => {
  const { store, endpoint } = await setup('/recovers');
  let fail = true;
  rx.respond((r) => (r.path === '/recovers' && fail ? { status: 500 } : { status: 200 }));
  const saved = t.clock.now();
  try {
    const w = worker();
    await emitEvent(store.id);
    await w.runOnce();
    assert.ok((await t.db.query('SELECT failing_since FROM webhook_endpoints WHERE id = $1', [endpoint.id])).rows[0].failing_since);
    fail = false;
    t.clock.advance(6_000);
    await w.runOnce();
    assert.equal((await t.db.query('SELECT failing_since FROM webhook_endpoints WHERE id = $1', [endpoint.id])).rows[0].failing_since, null);
  } finally {
    t.clock.set(saved);
    rx.respond(() => ({ status: 200 }));
  }
});

test('on 429, 502 and 504 Retry-After is honoured; on 500 it is not', async () => {
  for (const [status, expected] of [[429, 120_000], [502, 600_000], [504, 120_000], [500, 5_000]] as const) {
    const path = `/retry-after-${status}`;
    const { store, endpoint } = await setup(path);
    rx.respond((r) => (r.path === path ? { status, headers: { 'retry-after': status === 502 ? new Date(t.clock.now().getTime() + 600_000).toUTCString() : '120' } } : { status: 200 }));
    await emitEvent(store.id);
    await worker().runOnce();
    const [a] = await attemptsOf(endpoint.id);
    assert.equal(a.http_status, status);
    const gap = Date.parse(a.next_retry_at) - Date.parse(a.attempted_at);
    assert.ok(Math.abs(gap - expected) <= 1000, `${status}: ${gap}`);
  }
  rx.respond(() => ({ status: 200 }));
});

test('a redirect is a failure and is not followed', async () => {
  const { store, endpoint } = await setup('/redirect');
  rx.respond((r) => (r.path === '/redirect' ? { status: 302, headers: { location: rx.url('/elsewhere') } } : { status: 200 }));
  try {
    await emitEvent(store.id);
    await worker().runOnce();
    const [a] = await attemptsOf(endpoint.id);
    assert.equal(a.succeeded, false);
    assert.equal(a.http_status, 302);
    assert.match(a.error, /redirect/);
    assert.equal(at('/elsewhere').length, 0);
    assert.equal((await deliveryOf(endpoint.id)).status, 'pending');
  } finally {
    rx.respond(() => ({ status: 200 }));
  }
});

test('at most 1 KB of the answer body is kept', async () => {
  const { store, endpoint } = await setup('/chatty');
  rx.respond((r) => (r.path === '/chatty' ? { status: 200, body: 'x'.repeat(5000) } : { status: 200 }));
  try {
    await emitEvent(store.id);
    await worker().runOnce();
    const [a] = await attemptsOf(endpoint.id);
    assert.equal(a.succeeded, true);
    assert.equal(a.response_body, 'x'.repeat(1024));
  } finally {
    rx.respond(() => ({ status: 200 }));
  }
});

test('a target that resolves to a private address is refused at delivery time too (DNS may change)', async () => {
  const { store, endpoint } = await setup('/rebind');
  await emitEvent(store.id);
  // The same endpoint, now seen by a worker that does not allow private targets.
  await worker({ allowPrivateTargets: false }).runOnce();
  const [a] = await attemptsOf(endpoint.id);
  assert.equal(a.succeeded, false);
  assert.equal(a.http_status, null);
  assert.match(a.error, /refused: .*private, loopback or link-local/);
  assert.equal(at('/rebind').length, 0);
  // A name checked by the resolver: every address it gives must be public.
  const { sendAttempt } = await import('../../src/webhooks/sender.ts');
  const r = await sendAttempt('http://hooks.example.com/x', {}, '{}', {
    rules: { requireHttps: false, allowPrivate: false },
    resolve: async () => [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.7', family: 4 }],
  });
  assert.equal(r.ok, false);
  assert.match(r.error!, /refused/);
});

test('manual retry sends one event again now; replay sends every failed delivery since a time', async () => {
  const { store, endpoint, token } = await setup('/manual');
  let ok = false;
  rx.respond((r) => (r.path === '/manual' ? { status: ok ? 200 : 500 } : { status: 200 }));
  try {
    const w = worker({ retryScheduleMs: [] }); // one attempt, then failed
    const first = await emitEvent(store.id);
    t.clock.advance(1000);
    const since = t.clock.now().toISOString();
    const second = await emitEvent(store.id);
    const third = await emitEvent(store.id);
    await w.runOnce();
    const states = (await t.db.query("SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'failed'", [endpoint.id])).rows[0].n;
    assert.equal(states, 3);

    ok = true;
    const retried = await call(t.app, 'POST', `${BASE}/${endpoint.id}/deliveries/${first}/retry`, { token });
    assert.equal(retried.status, 200);
    assert.equal(retried.body.delivery.status, 'pending');
    assert.equal(retried.body.delivery.event_id, first);
    assert.equal(retried.body.delivery.next_attempt_at, t.clock.now().toISOString());
    assert.equal(await w.runOnce(), 1);
    assert.equal(at('/manual').filter((r) => r.headers['webhook-id'] === first).length, 2);

    const replayed = await call(t.app, 'POST', `${BASE}/${endpoint.id}/replay`, { token, body: { since } });
    assert.equal(replayed.status, 200);
    assert.equal(replayed.body.replayed, 2);
    assert.equal(await w.runOnce(), 2);
    const delivered = (await t.db.query("SELECT event_id FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'delivered' ORDER BY event_id", [endpoint.id])).rows.map((r) => r.event_id);
    assert.deepEqual(delivered, [first, second, third].sort());

    const log = await call(t.app, 'GET', `${BASE}/${endpoint.id}/deliveries`, { token, query: { limit: 2 } });
    assert.equal(log.body.deliveries.length, 2);
    assert.equal(log.body.has_more, true);
    assert.ok(log.body.deliveries.every((d: any) => d.succeeded && d.attempt === 2));
    const next = await call(t.app, 'GET', `${BASE}/${endpoint.id}/deliveries`, { token, query: { limit: 10, cursor: log.body.next_cursor } });
    assert.equal(next.body.deliveries.length, 4);
    assert.equal(next.body.has_more, false);
    assert.equal(next.body.next_cursor, null);
    assert.deepEqual(next.body.deliveries.map((d: any) => d.attempt), [2, 1, 1, 1]);

    const unknown = await call(t.app, 'POST', `${BASE}/${endpoint.id}/deliveries/00000000-0000-4000-8000-000000000009/retry`, { token });
    assert.equal(unknown.status, 404);
    await call(t.app, 'PATCH', `${BASE}/${endpoint.id}`, { token, body: { enabled: false } });
    const disabled = await call(t.app, 'POST', `${BASE}/${endpoint.id}/replay`, { token, body: { since } });
    assert.equal(disabled.status, 409);
    assert.equal(disabled.body.error.code, 'WEBHOOK_ENDPOINT_DISABLED');
  } finally {
    rx.respond(() => ({ status: 200 }));
  }
});

test('concurrency is per endpoint: a slow receiver holds at most N attempts and does not hold up others', async () => {
  const slow = await setup('/slow');
  const fast = await setup('/fast');
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  rx.respond((r) => (r.path === '/slow' ? { status: 200, wait: gate } : { status: 200 }));
  const w = worker({ endpointConcurrency: 2, pollMs: 20 }).start();
  try {
    for (let i = 0; i < 6; i++) {
      await emitEvent(slow.store.id);
      await emitEvent(fast.store.id);
    }
    await rx.waitFor(6, 10_000, '/fast');
    await rx.waitFor(2, 10_000, '/slow');
    // A marker for the fast endpoint, emitted now: once it has arrived the worker has claimed again
    // with /slow's four still due, and a claim is counted (attempts) before its request is sent.
    await emitEvent(fast.store.id);
    await rx.waitFor(7, 10_000, '/fast');
    assert.equal(at('/slow').length, 2);
    assert.equal(rx.open.get('/slow'), 2);
    const claimed = (await t.db.query<{ n: number }>('SELECT sum(attempts)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1', [slow.endpoint.id])).rows[0].n;
    assert.equal(claimed, 2, 'no third attempt was claimed for the slow endpoint');
    release();
    await rx.waitFor(6, 10_000, '/slow');
    assert.equal(rx.maxOpen.get('/slow'), 2);
  } finally {
    release();
    await w.stop();
    rx.respond(() => ({ status: 200 }));
  }
  for (let i = 0; i < 100 && (await t.db.query("SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'delivered'", [slow.endpoint.id])).rows[0].n < 6; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal((await t.db.query("SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'delivered'", [slow.endpoint.id])).rows[0].n, 6);
});
