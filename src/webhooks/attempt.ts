// One attempt of one delivery, and disabling an endpoint, for the webhook worker (delivery-worker.ts):
// sign the event, send it, and say what to record; the worker batches the outcomes.
import type { Config } from '../config.ts';
import type { Database } from '../platform/db/port.ts';
import { emit } from '../events/outbox.ts';
import { eventOf, type AttemptOutcome, type ClaimedDelivery } from './delivery-queue.repository.ts';
import { disableEndpoint } from './endpoints.repository.ts';
import { presentEndpoint } from './webhooks.presenter.ts';
import { nextAttemptAt, retryAfterMs, type Random } from './retry-policy.ts';
import { sendAttempt, type Agents } from './sender.ts';
import { signatureHeaders } from './signing.ts';
import type { Resolver } from './target-guard.ts';

/** The worker's log, as much of it as disabling needs. */
interface Log {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface AttemptSettings {
  settings: Config['webhooks'];
  resolve?: Resolver;
  random?: Random;
  timeoutMs: number;
  agents: Agents;
}

/** One attempt of delivery c at now: what the worker records for it. */
export async function attemptDelivery(c: ClaimedDelivery, now: Date, s: AttemptSettings): Promise<AttemptOutcome> {
  const event = eventOf(c);
  const base = {
    delivery_id: c.id,
    attempt: c.attempt,
    endpoint_id: c.endpoint_id,
    event_id: c.event_id,
    event_type: c.event_type,
    attempted_at: now.toISOString(),
  };
  if (!event) {
    return {
      ...base,
      ok: false,
      http_status: null,
      error: 'the event is no longer retained',
      duration_ms: 0,
      body: null,
      next_at: null,
    };
  }
  const body = JSON.stringify(event);
  const headers = signatureHeaders(c.event_id, now, body, { secret: c.secret, previousSecret: c.previous_secret });
  let result;
  try {
    result = await sendAttempt(c.url, headers, body, {
      rules: { requireHttps: s.settings.requireHttps, allowPrivate: s.settings.allowPrivateTargets },
      resolve: s.resolve,
      timeoutMs: s.timeoutMs,
      agents: s.agents,
    });
  } catch (err) {
    result = {
      ok: false,
      status: null,
      error: `send failed: ${(err as Error).message}`.slice(0, 300),
      durationMs: 0,
      body: null,
      retryAfter: null,
    };
  }
  const gone = result.status === 410;
  const next =
    result.ok || gone
      ? null
      : nextAttemptAt(
          s.settings.retryScheduleMs,
          c.attempt,
          now,
          retryAfterMs(result.status, result.retryAfter, now),
          s.random,
        );
  return {
    ...base,
    ok: result.ok,
    http_status: result.status,
    error: gone ? 'HTTP 410 Gone: endpoint disabled' : result.error,
    duration_ms: result.durationMs,
    body: result.body,
    next_at: next ? next.toISOString() : null,
  };
}

/** Disables the endpoint and records webhook_endpoint.disabled in the same transaction (once). */
export async function disableWithEvent(
  db: Database,
  log: Log,
  endpointId: string,
  reason: 'gone' | 'failing',
  now: Date,
): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      const row = await disableEndpoint(tx, endpointId, reason, now.toISOString());
      if (!row) return;
      await emit(
        tx,
        {
          storeId: row.store_id,
          type: 'webhook_endpoint.disabled',
          data: { ...presentEndpoint(row), disabled_reason: reason },
        },
        now,
      );
      log.info({ endpointId, reason }, 'webhook endpoint disabled');
    });
  } catch (err) {
    log.error({ endpointId, err: { message: (err as Error).message } }, 'disabling a webhook endpoint failed');
  }
}
