// How the webhook worker (delivery-worker.ts) records its attempts' outcomes: gathered for a few ms
// (or until a batch is full) and written together, one statement per batch, one flush at a time;
// then the endpoints that answered 410 or kept failing are disabled. Recording one by one would make
// every completion a commit, and every freed slot a claim of one.
import type { Clock } from '../platform/clock.ts';
import type { Database } from '../platform/db/port.ts';
import { isRetryable } from '../platform/db/pg-errors.ts';
import { completeAttempts, type AttemptOutcome } from './delivery-queue.repository.ts';
import { disableWithEvent } from './attempt.ts';

/** An endpoint that has failed every attempt for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600_000;
/** Outcomes are recorded together: after this many ms, or at once when this many are waiting. */
const FLUSH_GATHER_MS = 5;
const FLUSH_BATCH = 100;

export interface RecorderLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export class OutcomeRecorder {
  private outcomes: AttemptOutcome[] = [];
  private flushing: Promise<void> | null = null;
  private nextFlush: Promise<void> | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private runFlushNow: (() => void) | null = null;

  private readonly o: { db: Database; clock: Clock; log: RecorderLog };
  private readonly flushed: () => void;

  /** `flushed` runs after each flush (the slots its attempts held came free). */
  constructor(o: { db: Database; clock: Clock; log: RecorderLog }, flushed: () => void) {
    this.o = o;
    this.flushed = flushed;
  }

  /** An outcome waits here for the next flush. */
  push(outcome: AttemptOutcome): void {
    this.outcomes.push(outcome);
  }

  /** Resolves once the outcomes waiting now are recorded (gathered for a few ms, or until a batch is full). */
  recorded(): Promise<void> {
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

  /** At stop: no gathering timer left behind; everything waiting recorded. */
  async close(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    await this.flush();
  }

  /** Records the waiting outcomes (one statement per batch); one flush runs at a time. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => (this.outcomes.length ? this.flush() : undefined));
    if (this.outcomes.length === 0) return Promise.resolve();
    const drain = async () => {
      while (this.outcomes.length) await this.record(this.outcomes.splice(0, 500));
    };
    this.flushing = drain().finally(() => {
      this.flushing = null;
      this.flushed();
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
