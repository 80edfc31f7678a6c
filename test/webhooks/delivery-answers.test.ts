// Webhook delivery, the receiver's other answers: Retry-After honoured, 3xx is a failure, 1 KB of
// the answer kept, a private address refused at delivery time, manual retry and replay, and
// per-endpoint concurrency (a real receiver on 127.0.0.1; the world in delivery-world.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../support/http.ts';
import { BASE, startDeliveryWorld } from './delivery-world.ts';

const { t, rx, worker, setup, emitEvent, at, attemptsOf, deliveryOf } = await startDeliveryWorld();

test('on 429, 502 and 504 Retry-After is honoured; on 500 it is not', async () => {
  for (const [status, expected] of [
    [429, 120_000],
    [502, 600_000],
    [504, 120_000],
    [500, 5_000],
  ] as const) {
    const path = `/retry-after-${status}`;
    const { store, endpoint } = await setup(path);
    rx.respond((r) =>
      r.path === path
        ? {
            status,
            headers: {
              'retry-after': status === 502 ? new Date(t.clock.now().getTime() + 600_000).toUTCString() : '120',
            },
          }
        : { status: 200 },
    );
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
  rx.respond((r) =>
    r.path === '/redirect' ? { status: 302, headers: { location: rx.url('/elsewhere') } } : { status: 200 },
  );
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
    resolve: async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ],
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
    const states = (
      await t.db.query(
        "SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'failed'",
        [endpoint.id],
      )
    ).rows[0].n;
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
    const delivered = (
      await t.db.query(
        "SELECT event_id FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'delivered' ORDER BY event_id",
        [endpoint.id],
      )
    ).rows.map((r) => r.event_id);
    assert.deepEqual(delivered, [first, second, third].sort());

    const log = await call(t.app, 'GET', `${BASE}/${endpoint.id}/deliveries`, { token, query: { limit: 2 } });
    assert.equal(log.body.deliveries.length, 2);
    assert.equal(log.body.has_more, true);
    assert.ok(log.body.deliveries.every((d: any) => d.succeeded && d.attempt === 2));
    const next = await call(t.app, 'GET', `${BASE}/${endpoint.id}/deliveries`, {
      token,
      query: { limit: 10, cursor: log.body.next_cursor },
    });
    assert.equal(next.body.deliveries.length, 4);
    assert.equal(next.body.has_more, false);
    assert.equal(next.body.next_cursor, null);
    assert.deepEqual(
      next.body.deliveries.map((d: any) => d.attempt),
      [2, 1, 1, 1],
    );

    const unknown = await call(
      t.app,
      'POST',
      `${BASE}/${endpoint.id}/deliveries/00000000-0000-4000-8000-000000000009/retry`,
      { token },
    );
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
    const claimed = (
      await t.db.query<{ n: number }>('SELECT sum(attempts)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1', [
        slow.endpoint.id,
      ])
    ).rows[0].n;
    assert.equal(claimed, 2, 'no third attempt was claimed for the slow endpoint');
    release();
    await rx.waitFor(6, 10_000, '/slow');
    assert.equal(rx.maxOpen.get('/slow'), 2);
  } finally {
    release();
    await w.stop();
    rx.respond(() => ({ status: 200 }));
  }
  for (
    let i = 0;
    i < 100 &&
    (
      await t.db.query(
        "SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'delivered'",
        [slow.endpoint.id],
      )
    ).rows[0].n < 6;
    i++
  ) {
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(
    (
      await t.db.query(
        "SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'delivered'",
        [slow.endpoint.id],
      )
    ).rows[0].n,
    6,
  );
});
