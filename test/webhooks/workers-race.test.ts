// Several workers (each its own connection pool, as separate processes would have) on one
// PostgreSQL: every event reaches every endpoint, no attempt is made twice at once, and a crashed
// worker's lease runs out and the attempt is made again with the same webhook-id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call } from '../support/http.ts';
import { emit } from '../../src/events/outbox.ts';
import { openPg } from '../../src/platform/db/pg.adapter.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { WebhookWorker } from '../../src/webhooks/delivery-worker.ts';
import { claimDue } from '../../src/webhooks/delivery-queue.repository.ts';
import { startReceiver, silentLog } from './receiver.ts';

const t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });

test('three workers on one PostgreSQL never make one attempt twice at once, and deliver everything once', async () => {
  const rx = await startReceiver();
  const inFlight = new Set<string>();
  const overlaps: string[] = [];
  rx.respond((r) => {
    const key = `${r.path} ${r.headers['webhook-id']}`;
    if (inFlight.has(key)) overlaps.push(key);
    inFlight.add(key);
    // Hold each answer a little so attempts overlap in time across workers.
    const wait = new Promise<void>((resolve) => setTimeout(resolve, 2 + Math.random() * 8)).then(
      () => void inFlight.delete(key),
    );
    return { status: 200, wait };
  });
  const ENDPOINTS = 4;
  const EVENTS = 60;
  const stores: string[] = [];
  for (let i = 0; i < ENDPOINTS; i++) {
    const store = await t.fx.store();
    const token = await t.fx.merchantToken(store.id);
    const r = await call(t.app, 'POST', '/api/v1/webhooks/endpoints', { token, body: { url: rx.url(`/ep${i}`) } });
    assert.equal(r.status, 200);
    // A second endpoint of the same store: each event goes to both.
    await call(t.app, 'POST', '/api/v1/webhooks/endpoints', { token, body: { url: rx.url(`/ep${i}b`) } });
    stores.push(store.id);
  }
  const pools = [
    openPg({ connectionString: t.url!, poolSize: 4 }),
    openPg({ connectionString: t.url!, poolSize: 4 }),
    openPg({ connectionString: t.url!, poolSize: 4 }),
  ];
  const workers = pools.map((db) =>
    new WebhookWorker({
      db,
      clock: systemClock,
      log: silentLog,
      settings: { ...t.config.webhooks, pollMs: 10, endpointConcurrency: 4 },
    }).start(),
  );
  try {
    // Events arrive while the workers run, from several writers at once.
    await Promise.all(
      stores.map(async (storeId) => {
        for (let i = 0; i < EVENTS; i++)
          await emit(t.db, { storeId, type: 'appointment.created', data: { n: i } }, new Date());
      }),
    );
    await rx.waitFor(ENDPOINTS * 2 * EVENTS, 30_000);
    // A marker event per store, written after all the others: once every endpoint has it, any second
    // attempt of an earlier event (claimed before it) has arrived too.
    await Promise.all(
      stores.map((storeId) => emit(t.db, { storeId, type: 'appointment.created', data: { n: 'marker' } }, new Date())),
    );
    await rx.waitFor(ENDPOINTS * 2 * (EVENTS + 1), 30_000);
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await Promise.all(pools.map((p) => p.close()));
  }
  assert.deepEqual(overlaps, []);
  const perTarget = new Map<string, number>();
  for (const r of rx.received) {
    const key = `${r.path} ${r.headers['webhook-id']}`;
    perTarget.set(key, (perTarget.get(key) ?? 0) + 1);
  }
  const total = ENDPOINTS * 2 * (EVENTS + 1);
  assert.equal(perTarget.size, total);
  assert.deepEqual(
    [...perTarget.values()].filter((n) => n !== 1),
    [],
  );
  const rows = (
    await t.db.query('SELECT status, attempts, count(*)::int AS n FROM webhook_deliveries GROUP BY status, attempts')
  ).rows;
  assert.deepEqual(rows, [{ status: 'delivered', attempts: 1, n: total }]);
  const log = (await t.db.query('SELECT count(*)::int AS n, max(attempt) AS max FROM webhook_attempts')).rows[0];
  assert.deepEqual(log, { n: total, max: 1 });
});

test('claims racing on one endpoint never take one delivery twice, and respect the endpoint cap together', async () => {
  const store = await t.fx.store();
  const token = await t.fx.merchantToken(store.id);
  const r = await call(t.app, 'POST', '/api/v1/webhooks/endpoints', { token, body: { url: 'http://127.0.0.1:9/cap' } });
  const endpointId = r.body.endpoint.id;
  for (let i = 0; i < 50; i++)
    await emit(t.db, { storeId: store.id, type: 'appointment.created', data: { n: i } }, t.clock.now());
  const w = new WebhookWorker({ db: t.db, clock: t.clock, log: silentLog, settings: t.config.webhooks });
  await w.dispatchCommitted();
  const pools = Array.from({ length: 6 }, () => openPg({ connectionString: t.url!, poolSize: 2 }));
  try {
    const claims = await Promise.all(
      pools.map((db) => claimDue(db, t.clock.now(), { perEndpoint: 7, total: 50, leaseMs: 60_000 })),
    );
    const ids = claims
      .flat()
      .filter((c) => c.endpoint_id === endpointId)
      .map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(ids.length, 7);
    // A second round while those leases hold: nothing more for this endpoint.
    const again = await Promise.all(
      pools.map((db) => claimDue(db, t.clock.now(), { perEndpoint: 7, total: 50, leaseMs: 60_000 })),
    );
    assert.equal(again.flat().filter((c) => c.endpoint_id === endpointId).length, 0);
    // The leases run out (the workers died): the attempts are due again, as attempt 2, same event.
    t.clock.advance(61_000);
    const retaken = (await claimDue(pools[0], t.clock.now(), { perEndpoint: 50, total: 50, leaseMs: 60_000 })).filter(
      (c) => c.endpoint_id === endpointId,
    );
    assert.equal(retaken.length, 50);
    for (const c of retaken) assert.equal(c.attempt, ids.includes(c.id) ? 2 : 1);
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
});
