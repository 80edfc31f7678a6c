// The webhook worker: a dispatcher that follows the feed of every store into deliveries, and a
// delivery loop that claims due deliveries (leases, per-endpoint caps), POSTs them, and records the
// results in batches. Runs inside `npm start` (src/server.ts) unless WORKER_ENABLED=false, and alone
// as `npm run worker` (src/worker.ts); any number of them share one PostgreSQL.
//
// Recording outcomes in batches is outcome-recorder.ts.
//
// At-least-once: a delivery is marked delivered only after a 2xx. A worker that dies mid-attempt
// leaves a lease that runs out; the attempt is then due again and is sent with the same webhook-id.
import type { WebhooksConfig } from './webhooks.config.ts';
import type { Clock } from '../platform/clock.ts';
import type { Database } from '../platform/db/port.ts';
import { claimDue, dispatchBatch, type ClaimedDelivery } from './delivery-queue.repository.ts';
import { OutcomeRecorder, type RecorderLog } from './outcome-recorder.ts';
import type { Random } from './retry-policy.ts';
import { createAgents, destroyAgents, ATTEMPT_TIMEOUT_MS, type Agents } from './sender.ts';
import { attemptDelivery } from './attempt.ts';
import type { Resolver } from './target-guard.ts';
import { noGate, type YieldGate } from '../platform/background/yield-gate.ts';

/** Connections of the worker's own pool inside `npm start` (dispatch, claims and records overlap). */
export const WEBHOOK_WORKER_POOL = 4;
const DISPATCH_BATCH = 1000;
/** Deliveries taken per claim at most (one claim is one short transaction). */
const CLAIM_BATCH = 200;

export type WorkerLog = RecorderLog;

export interface WorkerOptions {
  db: Database;
  clock: Clock;
  log: WorkerLog;
  settings: WebhooksConfig;
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
  private readonly recorder: OutcomeRecorder;

  constructor(options: WorkerOptions) {
    this.o = options;
    this.timeoutMs = options.settings.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.leaseMs = options.leaseMs ?? this.timeoutMs * 2 + 2_000;
    this.agents = createAgents();
    this.gate = options.gate ?? noGate;
    this.recorder = new OutcomeRecorder(options, () => this.wake()); // slots came free
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
    await this.recorder.close();
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
      await this.recorder.flush();
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
        const p = this.attempt(c).then(() => this.recorder.recorded());
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
    this.recorder.push(
      await attemptDelivery(c, o.clock.now(), {
        settings: o.settings,
        resolve: o.resolve,
        random: o.random,
        timeoutMs: this.timeoutMs,
        agents: this.agents,
      }),
    );
  }
}
