// The webhook delivery tests' world: the app (its clock at the real now, since a receiver's verify
// compares webhook-timestamp with its own clock), a receiver on 127.0.0.1, a worker with no jitter,
// and the helpers delivery.test.ts and delivery-answers.test.ts share.
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call } from '../support/http.ts';
import { emit } from '../../src/events/outbox.ts';
import type { EventType } from '../../src/events/event-types.ts';
import { WebhookWorker } from '../../src/webhooks/delivery-worker.ts';
import { startReceiver, silentLog } from './receiver.ts';

export const BASE = '/api/v1/webhooks/endpoints';

export async function startDeliveryWorld() {
  const t = await startTestApp({ now: new Date().toISOString(), env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  const rx = await startReceiver();

  function worker(settings: Partial<typeof t.config.webhooks> = {}) {
    // random 0.5: the jitter factor is exactly 1, so delays are the schedule's own.
    return new WebhookWorker({
      db: t.db,
      clock: t.clock,
      log: silentLog,
      settings: { ...t.config.webhooks, ...settings },
      random: () => 0.5,
    });
  }

  async function setup(path: string, body: Record<string, unknown> = {}) {
    const store = await t.fx.store();
    const token = await t.fx.merchantToken(store.id);
    const r = await call(t.app, 'POST', BASE, { token, body: { url: rx.url(path), ...body } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return { store, token, endpoint: r.body.endpoint as { id: string; secret: string } };
  }

  async function emitEvent(
    storeId: string,
    type: EventType = 'appointment.created',
    data: Record<string, unknown> = { id: crypto.randomUUID(), status: 'confirmed' },
  ): Promise<string> {
    await emit(t.db, { storeId, type, data }, t.clock.now());
    const res = await t.db.query<{ id: string }>(
      'SELECT id FROM events WHERE store_id = $1 ORDER BY txid DESC, seq DESC LIMIT 1',
      [storeId],
    );
    return res.rows[0].id;
  }

  const at = (path: string) => rx.received.filter((r) => r.path === path);

  async function attemptsOf(endpointId: string) {
    const res = await t.db.query(
      'SELECT attempt, attempted_at, succeeded, http_status, error, response_body, next_retry_at FROM webhook_attempts WHERE endpoint_id = $1 ORDER BY id',
      [endpointId],
    );
    return res.rows;
  }

  async function deliveryOf(endpointId: string) {
    return (await t.db.query('SELECT status, attempts FROM webhook_deliveries WHERE endpoint_id = $1', [endpointId]))
      .rows[0];
  }

  return { t, rx, worker, setup, emitEvent, at, attemptsOf, deliveryOf };
}
