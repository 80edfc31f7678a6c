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
import {
  claimDue,
  completeAttempts,
  dispatchBatch,
  type AttemptOutcome,
  type ClaimedDelivery,
} from './delivery-queue.repository.ts';
import type { Random } from './retry-policy.ts';
import { createAgents, destroyAgents, ATTEMPT_TIMEOUT_MS, type Agents } from './sender.ts';
import { attemptDelivery, disableWithEvent } from './attempt.ts';
import type { Resolver } from './target-guard.ts';
import { noGate, type YieldGate } from '../platform/background/yield-gate.ts';

/** Connections of the worker's own pool inside `npm start` (dispatch, claims and records overlap). */
export const WEBHOOK_WORKER_POOL = 4;
/** An endpoint that has failed every attempt for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600_000;
const DISPATCH_BATCH = 1000;
/** Deliveries taken per claim at most (one claim is one short transaction). */
const CLAIM_BATCH = 200;
/** Outcomes are recorded together: after this many ms, or at once when this many are waiting. */
const FLUSH_GATHER_MS = 5;
const FLUSH_BATCH = 100;

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
  /** Inside `npm start`: each dispatch and claim waits for a quiet moment (src/platform/background/). */
  gate?: YieldGate;
}

export class WebhookWorker {
  private readonly o: WorkerOptions;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly agents: Agents;
  private readonly gate: YieldGate;
  private running = false;
  private loops: Promise<void>[] = [];
  private deliverySleeper: (() => void) | null = null;
  private dispatchSleeper: (() => void) | null = null;
  private woken = false;
  private inFlight = new Set<Promise<void>>();
  private outcomes: AttemptOutcome[] = [];
  private flushing: Promise<void> | null = null;
  private nextFlush: Promise<void> | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private runFlushNow: (() => void) | null = null;

  constructor(options: WorkerOptions) {
    this.o = options;
    this.timeoutMs = options.settings.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.leaseMs = options.leaseMs ?? this.timeoutMs * 2 + 2_000;
    this.agents = createAgents();
    this.gate = options.gate ?? noGate;
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
    this.deliverySleeper?.();
    this.dispatchSleeper?.();
    await Promise.all(this.loops);
    await Promise.all([...this.inFlight]);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    await this.flush();
    destroyAgents(this.agents);
  }

  /** Wakes the delivery loop now (new deliveries were dispatched, or slots came free). */
  wake(): void {
    // A wake-up while the loop is busy (claiming) is kept for its next sleep, so freed slots or new
    // deliveries never wait out a poll interval.
    this.woken = true;
    this.deliverySleeper?.();
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
    const target = (await this.o.db.query<{ x: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x'))
      .rows[0].x;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const passed = (
        await this.o.db.query<{ ok: boolean }>('SELECT pg_snapshot_xmin(pg_current_snapshot()) >= $1::xid8 AS ok', [
          target,
        ])
      ).rows[0].ok;
      while ((await this.dispatchOnce()).events === DISPATCH_BATCH);
      if (passed) return;
      if (Date.now() > deadline)
        throw new Error(
          'dispatch did not reach the events committed before the call (a long transaction holds the horizon)',
        );
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  dispatchOnce(): Promise<{ events: number; deliveries: number }> {
    return dispatchBatch(this.o.db, this.o.clock.now().toISOString(), DISPATCH_BATCH);
  }

  /** Waits ms, or less: the delivery loop is woken by wake(), both loops by stop(). */
  private sleep(ms: number, loop: 'dispatch' | 'delivery'): Promise<void> {
    if (!this.running) return Promise.resolve();
    if (loop === 'delivery' && this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (loop === 'delivery') {
          this.deliverySleeper = null;
          this.woken = false;
        } else this.dispatchSleeper = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      if (loop === 'delivery') this.deliverySleeper = done;
      else this.dispatchSleeper = done;
    });
  }

  private async dispatchLoop(): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        await this.gate.step();
        const r = await this.dispatchOnce();
        failures = 0;
        if (r.deliveries > 0) this.wake();
        if (r.events === DISPATCH_BATCH) continue;
      } catch (err) {
        if (failures++ === 0)
          this.o.log.warn({ err: { message: (err as Error).message } }, 'webhook dispatch failed; retrying');
      }
      await this.sleep(this.backoff(failures), 'dispatch');
    }
  }

  private async deliveryLoop(): Promise<void> {
    let failures = 0;
    while (this.running) {
      let claimed: ClaimedDelivery[] = [];
      try {
        await this.gate.step();
        claimed = await this.claim();
        failures = 0;
      } catch (err) {
        if (failures++ === 0)
          this.o.log.warn({ err: { message: (err as Error).message } }, 'webhook claim failed; retrying');
      }
      for (const c of claimed) {
        // The attempt stays in inFlight until its outcome is recorded: until then its lease still
        // counts against the endpoint's cap in the database too.
        const p = this.attempt(c).then(() => this.recorded());
        this.inFlight.add(p);
        p.finally(() => this.inFlight.delete(p));
      }
      // Nothing due (or no free slot): wait for new deliveries, freed slots, or the poll interval.
      if (claimed.length === 0 || this.inFlight.size >= this.o.settings.workerConcurrency)
        await this.sleep(this.backoff(failures), 'delivery');
    }
  }

  /** The poll interval; while the database keeps failing, doubling up to 5 s (logged once per run). */
  private backoff(failures: number): number {
    return failures === 0
      ? this.o.settings.pollMs
      : Math.min(5_000, this.o.settings.pollMs * 2 ** Math.min(failures, 10));
  }

  /**
   * Resolves once the outcomes waiting now are recorded. Outcomes are gathered for a few ms (or
   * until a batch is full) so that one statement records many: recording one by one would make every
   * completion a commit, and every freed slot a claim of one.
   */
  private recorded(): Promise<void> {
    if (!this.nextFlush) {
      this.nextFlush = new Promise<void>((resolve) => {
        const run = () => {
          this.nextFlush = null;
          this.flushTimer = null;
          this.flush().then(resolve, resolve);
        };
        this.flushTimer = setTimeout(run, this.outcomes.length >= FLUSH_BATCH ? 0 : FLUSH_GATHER_MS);
        this.runFlushNow = run;
      });
      return this.nextFlush;
    }
    const pending = this.nextFlush;
    if (this.outcomes.length >= FLUSH_BATCH && this.runFlushNow && this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.runFlushNow();
    }
    return pending;
  }

  private claim(): Promise<ClaimedDelivery[]> {
    const free = this.o.settings.workerConcurrency - this.inFlight.size;
    return claimDue(this.o.db, this.o.clock.now(), {
      perEndpoint: this.o.settings.endpointConcurrency,
      total: Math.min(free, CLAIM_BATCH),
      leaseMs: this.leaseMs,
    });
  }

  /** One attempt of one delivery (attempt.ts); its outcome waits in this.outcomes for the next flush. */
  private async attempt(c: ClaimedDelivery): Promise<void> {
    const o = this.o;
    this.outcomes.push(
      await attemptDelivery(c, o.clock.now(), {
        settings: o.settings,
        resolve: o.resolve,
        random: o.random,
        timeoutMs: this.timeoutMs,
        agents: this.agents,
      }),
    );
  }

  /** Records the waiting outcomes (one statement per batch); one flush runs at a time. */
  private flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => (this.outcomes.length ? this.flush() : undefined));
    if (this.outcomes.length === 0) return Promise.resolve();
    const drain = async () => {
      while (this.outcomes.length) await this.record(this.outcomes.splice(0, 500));
    };
    this.flushing = drain().finally(() => {
      this.flushing = null;
      this.wake(); // slots came free
    });
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
    for (const id of gone) await disableWithEvent(this.o.db, this.o.log, id, 'gone', now);
    for (const id of failing) if (!gone.has(id)) await disableWithEvent(this.o.db, this.o.log, id, 'failing', now);
  }
}
