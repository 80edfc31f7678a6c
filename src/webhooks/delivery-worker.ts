// The webhook worker: a dispatcher that follows the feed of every store into deliveries, and a
// delivery loop that claims due deliveries (leases, per-endpoint caps), POSTs them, and records the
// results in batches. Runs inside `npm start` (src/server.ts) unless WORKER_ENABLED=false, and alone
// as `npm run worker` (src/worker.ts); any number of them share one PostgreSQL.
//
// At-least-once: a delivery is marked delivered only after a 2xx. A worker that dies mid-attempt
// leaves a lease that runs out; the attempt is then due again and is sent with the same webhook-id.
import type { Config } from '../config.ts';
import type { Clock } from '../platform/clock.ts';
import type { Database } from '../platform/db/port.ts';
import { isRetryable } from '../platform/db/pg-errors.ts';
import { emit } from '../events/outbox.ts';
import { claimDue, completeAttempts, dispatchBatch, eventOf, type AttemptOutcome, type ClaimedDelivery } from './delivery-queue.repository.ts';
import { disableEndpoint } from './endpoints.repository.ts';
import { presentEndpoint } from './webhooks.presenter.ts';
import { nextAttemptAt, retryAfterMs, type Random } from './retry-policy.ts';
import { createAgents, destroyAgents, sendAttempt, ATTEMPT_TIMEOUT_MS, type Agents } from './sender.ts';
import { signatureHeaders } from './signing.ts';
import type { Resolver } from './target-guard.ts';

/** An endpoint that has failed every attempt for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600_000;
const DISPATCH_BATCH = 1000;
/** Deliveries taken per claim at most (one claim is one short transaction). */
const CLAIM_BATCH = 200;

export interface WorkerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface WorkerOptions {
  db: Database;
  clock: Clock;
  log: WorkerLog;
  settings: Config['webhooks'];
  resolve?: Resolver;
  random?: Random;
  /** How long a claimed attempt stays this worker's (default: twice the attempt timeout plus 2 s, so
   * an attempt that runs to its timeout is recorded long before anyone else may take it). */
  leaseMs?: number;
}

export class WebhookWorker {
  private readonly o: WorkerOptions;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly agents: Agents;
  private running = false;
  private loops: Promise<void>[] = [];
  private sleepers = new Set<() => void>();
  private inFlight = new Set<Promise<void>>();
  private outcomes: AttemptOutcome[] = [];
  private flushing: Promise<void> | null = null;

  constructor(options: WorkerOptions) {
    this.o = options;
    this.timeoutMs = options.settings.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.leaseMs = options.leaseMs ?? this.timeoutMs * 2 + 2_000;
    this.agents = createAgents();
  }

  /** Starts the dispatch and delivery loops. */
  start(): this {
    if (this.running) return this;
    this.running = true;
    this.loops = [this.dispatchLoop(), this.deliveryLoop()];
    return this;
  }

  /** Stops claiming, lets attempts in flight finish (each is bounded by the timeout), records them. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await Promise.all(this.loops);
    await Promise.all([...this.inFlight]);
    await this.flush();
    destroyAgents(this.agents);
  }

  /** Wakes the loops now (new events were committed in this process, or slots came free). */
  wake(): void {
    for (const s of this.sleepers) s();
    this.sleepers.clear();
  }

  /**
   * One full round, for tests and the demo: dispatch every event below the horizon, then claim and
   * deliver until nothing is due at the clock's now, waiting for each attempt. Returns the attempts made.
   */
  async runOnce(): Promise<number> {
    await this.dispatchCommitted();
    let attempts = 0;
    for (;;) {
      const claimed = await this.claim();
      if (claimed.length === 0) break;
      attempts += claimed.length;
      await Promise.all(claimed.map((c) => this.attempt(c)));
      await this.flush();
    }
    return attempts;
  }

  /**
   * Dispatches every event committed before this call. The feed shows an event only once every
   * older transaction has finished (on a server, any database's), so this waits for the horizon to
   * pass the transaction ids in use at the call, then reads up to it.
   */
  async dispatchCommitted(timeoutMs = 10_000): Promise<void> {
    const target = (await this.o.db.query<{ x: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x')).rows[0].x;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const passed = (await this.o.db.query<{ ok: boolean }>('SELECT pg_snapshot_xmin(pg_current_snapshot()) >= $1::xid8 AS ok', [target])).rows[0].ok;
      while ((await this.dispatchOnce()).events === DISPATCH_BATCH);
      if (passed) return;
      if (Date.now() > deadline) throw new Error('dispatch did not reach the events committed before the call (a long transaction holds the horizon)');
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  dispatchOnce(): Promise<{ events: number; deliveries: number }> {
    return dispatchBatch(this.o.db, this.o.clock.now().toISOString(), DISPATCH_BATCH);
  }

  private sleep(ms: number): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  private async dispatchLoop(): Promise<void> {
    while (this.running) {
      try {
        const r = await this.dispatchOnce();
        if (r.deliveries > 0) this.wake();
        if (r.events === DISPATCH_BATCH) continue;
      } catch (err) {
        this.o.log.warn({ err: { message: (err as Error).message } }, 'webhook dispatch failed; retrying');
      }
      await this.sleep(this.o.settings.pollMs);
    }
  }

  private async deliveryLoop(): Promise<void> {
    while (this.running) {
      let claimed: ClaimedDelivery[] = [];
      try {
        claimed = await this.claim();
      } catch (err) {
        this.o.log.warn({ err: { message: (err as Error).message } }, 'webhook claim failed; retrying');
      }
      for (const c of claimed) {
        const p = this.attempt(c).then(() => this.flush());
        this.inFlight.add(p);
        p.finally(() => this.inFlight.delete(p));
      }
      // Nothing due (or no free slot): wait for new deliveries, freed slots, or the poll interval.
      if (claimed.length === 0 || this.inFlight.size >= this.o.settings.workerConcurrency) await this.sleep(this.o.settings.pollMs);
    }
  }

  private claim(): Promise<ClaimedDelivery[]> {
    const free = this.o.settings.workerConcurrency - this.inFlight.size;
    return claimDue(this.o.db, this.o.clock.now(), {
      perEndpoint: this.o.settings.endpointConcurrency,
      total: Math.min(free, CLAIM_BATCH),
      leaseMs: this.leaseMs,
    });
  }

  /** One attempt of one delivery; its outcome waits in this.outcomes for the next flush. */
  private async attempt(c: ClaimedDelivery): Promise<void> {
    const now = this.o.clock.now();
    const event = eventOf(c);
    const base = { delivery_id: c.id, attempt: c.attempt, endpoint_id: c.endpoint_id, event_id: c.event_id, event_type: c.event_type, attempted_at: now.toISOString() };
    if (!event) {
      this.outcomes.push({ ...base, ok: false, http_status: null, error: 'the event is no longer retained', duration_ms: 0, body: null, next_at: null });
      return;
    }
    const body = JSON.stringify(event);
    const headers = signatureHeaders(c.event_id, now, body, { secret: c.secret, previousSecret: c.previous_secret });
    let result;
    try {
      result = await sendAttempt(c.url, headers, body, {
        rules: { requireHttps: this.o.settings.requireHttps, allowPrivate: this.o.settings.allowPrivateTargets },
        resolve: this.o.resolve,
        timeoutMs: this.timeoutMs,
        agents: this.agents,
      });
    } catch (err) {
      result = { ok: false, status: null, error: `send failed: ${(err as Error).message}`.slice(0, 300), durationMs: 0, body: null, retryAfter: null };
    }
    const gone = result.status === 410;
    const next = result.ok || gone
      ? null
      : nextAttemptAt(this.o.settings.retryScheduleMs, c.attempt, now, retryAfterMs(result.status, result.retryAfter, now), this.o.random);
    this.outcomes.push({
      ...base,
      ok: result.ok,
      http_status: result.status,
      error: gone ? 'HTTP 410 Gone: endpoint disabled' : result.error,
      duration_ms: result.durationMs,
      body: result.body,
      next_at: next ? next.toISOString() : null,
    });
  }

  /** Records the waiting outcomes (one statement per batch); one flush runs at a time. */
  private flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => (this.outcomes.length ? this.flush() : undefined));
    this.flushing = (async () => {
      try {
        while (this.outcomes.length) {
          const batch = this.outcomes.splice(0, 500);
          await this.record(batch);
        }
      } finally {
        this.flushing = null;
      }
      this.wake(); // slots came free
    })();
    return this.flushing;
  }

  private async record(batch: AttemptOutcome[]): Promise<void> {
    const now = this.o.clock.now();
    const cutoff = new Date(now.getTime() - DISABLE_AFTER_FAILING_MS).toISOString();
    let failing: string[] = [];
    for (let tries = 1; ; tries++) {
      try {
        failing = await completeAttempts(this.o.db, batch, cutoff);
        break;
      } catch (err) {
        // A deadlock with another worker's batch, or an endpoint deleted under us: try again. If it
        // keeps failing the leases run out and the attempts are made again (at-least-once).
        if (tries >= 3 || (!isRetryable(err) && tries >= 2)) {
          this.o.log.error({ err: { message: (err as Error).message } }, 'recording webhook attempts failed');
          return;
        }
        await new Promise((r) => setTimeout(r, 20 * tries));
      }
    }
    const gone = new Set(batch.filter((o) => o.http_status === 410).map((o) => o.endpoint_id));
    for (const id of gone) await this.disable(id, 'gone', now);
    for (const id of failing) if (!gone.has(id)) await this.disable(id, 'failing', now);
  }

  /** Disables the endpoint and records webhook_endpoint.disabled in the same transaction (once). */
  private async disable(endpointId: string, reason: 'gone' | 'failing', now: Date): Promise<void> {
    try {
      await this.o.db.transaction(async (tx) => {
        const row = await disableEndpoint(tx, endpointId, reason, now.toISOString());
        if (!row) return;
        await emit(tx, { storeId: row.store_id, type: 'webhook_endpoint.disabled', data: { ...presentEndpoint(row), disabled_reason: reason } }, now);
        this.o.log.info({ endpointId, reason }, 'webhook endpoint disabled');
      });
    } catch (err) {
      this.o.log.error({ endpointId, err: { message: (err as Error).message } }, 'disabling a webhook endpoint failed');
    }
  }
}
