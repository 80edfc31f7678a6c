// Webhook delivery to a real receiver on 127.0.0.1: signed per Standard Webhooks (verified with the
// package's verify), only matching types, secret rotation, retried on the published schedule (with
// jitter within 10%), 410 disables, five days of failures disable, a success ends the run.
// The receivers' other answers: delivery-answers.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { call } from '../support/http.ts';
import { BASE, startDeliveryWorld } from './delivery-world.ts';

const { t, rx, worker, setup, emitEvent, at, attemptsOf, deliveryOf } = await startDeliveryWorld();

test('a delivery is the event JSON, signed so that the package verify accepts it, with webhook-id = event id', async () => {
  const { store, endpoint, token } = await setup('/signed');
  const eventId = await emitEvent(store.id, 'appointment.created', { id: 'a1', starts_at: '2026-07-01T10:00:00.000Z' });
  assert.equal(await worker().runOnce(), 1);
  const [r] = at('/signed');
  assert.equal(r.headers['webhook-id'], eventId);
  assert.equal(r.headers['content-type'], 'application/json');
  assert.match(r.headers['webhook-timestamp'], /^\d+$/);
  const verified = new Webhook(endpoint.secret).verify(r.body, r.headers) as any;
  assert.deepEqual(Object.keys(verified), [
    'id',
    'type',
    'store_id',
    'occurred_at',
    'occurred_at_local',
    'timezone',
    'actor',
    'data',
  ]);
  assert.equal(verified.id, eventId);
  assert.deepEqual(verified.actor, { type: 'system', id: null, name: null }); // emitted outside a request
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

test("only matching types and only the store's own events are delivered", async () => {
  const { store, endpoint } = await setup('/typed', { event_types: ['appointment.cancelled'] });
  const other = await t.fx.store();
  await emitEvent(store.id, 'appointment.created');
  const wanted = await emitEvent(store.id, 'appointment.cancelled');
  await emitEvent(other.id, 'appointment.cancelled');
  await worker().runOnce();
  assert.deepEqual(
    at('/typed').map((r) => r.headers['webhook-id']),
    [wanted],
  );
  assert.equal(
    (await t.db.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1', [endpoint.id]))
      .rows[0].n,
    1,
  );
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
    assert.deepEqual(
      log.map((a) => a.attempt),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    const gaps = log.slice(0, -1).map((a) => Date.parse(a.next_retry_at) - Date.parse(a.attempted_at));
    assert.deepEqual(
      gaps,
      [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000],
    );
    assert.ok(
      log.every((a) => !a.succeeded && a.http_status === 500 && a.error === 'HTTP 500' && a.response_body === 'boom'),
    );
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
    const row = (
      await t.db.query('SELECT enabled, disabled_reason FROM webhook_endpoints WHERE id = $1', [endpoint.id])
    ).rows[0];
    assert.deepEqual(row, { enabled: false, disabled_reason: 'gone' });
    assert.deepEqual(await deliveryOf(endpoint.id), { status: 'failed', attempts: 1 });
    const ev = (
      await t.db.query("SELECT data FROM events WHERE store_id = $1 AND type = 'webhook_endpoint.disabled'", [store.id])
    ).rows;
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
      assert.equal(
        (await t.db.query('SELECT enabled FROM webhook_endpoints WHERE id = $1', [endpoint.id])).rows[0].enabled,
        true,
        `day ${day}`,
      );
    }
    t.clock.advance(24 * 3600_000);
    await emitEvent(store.id);
    await w.runOnce();
    const row = (
      await t.db.query('SELECT enabled, disabled_reason FROM webhook_endpoints WHERE id = $1', [endpoint.id])
    ).rows[0];
    assert.deepEqual(row, { enabled: false, disabled_reason: 'failing' });
    const ev = (
      await t.db.query("SELECT data FROM events WHERE store_id = $1 AND type = 'webhook_endpoint.disabled'", [store.id])
    ).rows;
    assert.equal(ev.length, 1);
    assert.equal(ev[0].data.disabled_reason, 'failing');
    assert.equal(
      (
        await t.db.query(
          "SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending'",
          [endpoint.id],
        )
      ).rows[0].n,
      0,
    );
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
    assert.ok(
      (await t.db.query('SELECT failing_since FROM webhook_endpoints WHERE id = $1', [endpoint.id])).rows[0]
        .failing_since,
    );
    fail = false;
    t.clock.advance(6_000);
    await w.runOnce();
    assert.equal(
      (await t.db.query('SELECT failing_since FROM webhook_endpoints WHERE id = $1', [endpoint.id])).rows[0]
        .failing_since,
      null,
    );
  } finally {
    t.clock.set(saved);
    rx.respond(() => ({ status: 200 }));
  }
});
