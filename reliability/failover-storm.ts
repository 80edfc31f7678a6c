// The load of the failover drill (proofs/failover.ts): clients that create and move appointments
// through three server processes, each request with its own Idempotency-Key and retried with the
// same key until it gets a definitive answer, as a real client would; and a reader of the events
// feed that pages on through the outage. Every answer is tallied: 2xx, 503 with Retry-After (what
// the service must answer while there is no primary), and anything else (which fails the drill).
import { randomUUID } from 'node:crypto';
import { errorCodeOf, http, isEnvelope, type HttpResult } from './client.ts';
import type { ServerProcess } from './server-process.ts';
import { sleep } from './env.ts';

const CREATE = '/api/v1/bookings/appointments';
const MOVE = '/api/v1/bookings/appointments/reschedule';
/** A request's own bound: a 503 must come well within it (the adapter's read timeout is 15 s). */
const REQUEST_TIMEOUT_MS = 20_000;

export interface Acked {
  id: string;
  key: string;
  body: Record<string, unknown>;
  answer: HttpResult;
  /** Sent more than once with its key (a 503, a reset, an in-progress answer before the 2xx). */
  retried: boolean;
  /** When its 2xx arrived. */
  at: number;
}

export interface Tally {
  ok: number;
  unavailable: number;
  /** 503 without Retry-After, or not in the envelope. */
  badUnavailable: number;
  /** 409 IDEMPOTENCY_IN_PROGRESS: the first attempt still holds its key (it died with its session). */
  inProgress: number;
  transport: number;
  transportErrors: Record<string, number>;
  /** A definitive refusal the caller expects (a hold that lost its race: SLOT_TAKEN, SLOT_UNAVAILABLE). */
  refused: number;
  /** Any other answer: each one also fails the drill through onUnexpected. */
  other: number;
  slowest503Ms: number;
}

export const newTally = (): Tally => ({
  ok: 0,
  unavailable: 0,
  badUnavailable: 0,
  inProgress: 0,
  transport: 0,
  transportErrors: {},
  refused: 0,
  other: 0,
  slowest503Ms: 0,
});

export class Storm {
  readonly creates: Acked[] = [];
  readonly moved = new Map<string, { starts_at: string; ends_at: string }>();
  tally: Tally = newTally();
  /** When each 2xx write arrived: the outage is the longest gap between two of them. */
  readonly okTimes: number[] = [];
  /** Time of the first 2xx write whose request was sent after `since` (set by watchFirstWrite). */
  firstWriteAfter: { since: number; at: number | null } | null = null;
  private slot: number;
  private stopped = false;
  private running: Promise<void> | null = null;

  private readonly servers: ServerProcess[];
  private readonly token: string;
  private readonly store: string;
  private readonly units: string[];
  private readonly onUnexpected: (what: string) => void;

  /** firstSlot: where this storm's hours start, so two storms on the same units never meet. */
  constructor(
    servers: ServerProcess[],
    token: string,
    store: string,
    units: string[],
    onUnexpected: (what: string) => void,
    firstSlot = 0,
  ) {
    this.slot = firstSlot;
    this.servers = servers;
    this.token = token;
    this.store = store;
    this.units = units;
    this.onUnexpected = onUnexpected;
  }

  private nextSlot() {
    const start = Date.parse('2031-03-01T00:00:00Z') + this.slot++ * 3600_000;
    return { starts_at: new Date(start).toISOString(), ends_at: new Date(start + 45 * 60_000).toISOString() };
  }

  /**
   * One logical write, retried with its key until it has a definitive answer: a 2xx, or (as
   * `refused`) a 409 whose code is one of o.refusals (a race lost to another client: no retry helps).
   * o.token acts as someone else than the store's staff (a customer's hold); o.method defaults to POST.
   */
  async send(
    client: number,
    path: string,
    body: Record<string, unknown> | undefined,
    o: { token?: string; method?: string; refusals?: string[] } = {},
  ): Promise<{ answer: HttpResult; key: string; retried: boolean; refused?: string } | null> {
    const key = randomUUID();
    for (let attempt = 0; attempt < 600; attempt++) {
      const sentAt = Date.now();
      const server = this.servers[(client + attempt) % this.servers.length];
      const r = await http(server.baseUrl, o.method ?? 'POST', path, {
        token: o.token ?? this.token,
        body,
        idempotencyKey: key,
        timeoutMs: REQUEST_TIMEOUT_MS,
      });
      const t = this.tally;
      const code = errorCodeOf(r);
      if (r.status === 409 && code && o.refusals?.includes(code)) {
        t.refused++;
        return { answer: r, key, retried: attempt > 0, refused: code };
      }
      if (r.status >= 200 && r.status < 300) {
        t.ok++;
        this.okTimes.push(Date.now());
        const f = this.firstWriteAfter;
        if (f && f.at === null && sentAt >= f.since) f.at = Date.now();
        return { answer: r, key, retried: attempt > 0 };
      }
      if (r.status === 503) {
        t.unavailable++;
        t.slowest503Ms = Math.max(t.slowest503Ms, r.ms);
        if (!r.headers?.get('retry-after') || !isEnvelope(r.body) || code !== 'SERVICE_UNAVAILABLE') {
          t.badUnavailable++;
          this.onUnexpected(
            `503 without Retry-After or not SERVICE_UNAVAILABLE in the envelope: ${JSON.stringify(r.body).slice(0, 200)}`,
          );
        }
      } else if (r.status === 409 && code === 'IDEMPOTENCY_IN_PROGRESS') t.inProgress++;
      else if (r.status === 0) {
        t.transport++;
        t.transportErrors[r.error ?? 'unknown'] = (t.transportErrors[r.error ?? 'unknown'] ?? 0) + 1;
      } else {
        t.other++;
        this.onUnexpected(
          `${o.method ?? 'POST'} ${path} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`,
        );
        return null;
      }
      // A client honours Retry-After in spirit, but keeps it short so the drill times the outage finely.
      await sleep(r.status === 503 ? 150 : 50);
      if (this.stopped && attempt > 200) break;
    }
    this.onUnexpected(`${path}: no definitive answer after many retries`);
    return null;
  }

  private async client(c: number): Promise<void> {
    const unit = this.units[c % this.units.length];
    while (!this.stopped) {
      const slot = this.nextSlot();
      const body = {
        store_id: this.store,
        unit_id: unit,
        ...slot,
        price_pence: 2500,
        guest_email: 'failover@example.com',
        client_token: randomUUID(),
      };
      const created = await this.send(c, CREATE, body);
      if (!created) continue;
      const id = created.answer.body.appointment.id as string;
      this.creates.push({
        id,
        key: created.key,
        body,
        answer: created.answer,
        retried: created.retried,
        at: Date.now(),
      });
      if (this.stopped) break;
      const to = this.nextSlot();
      const moved = await this.send(c, MOVE, { store_id: this.store, appointment_id: id, unit_id: unit, ...to });
      if (moved) this.moved.set(id, to);
    }
  }

  start(clients: number): void {
    this.stopped = false;
    this.running = Promise.all(Array.from({ length: clients }, (_, c) => this.client(c))).then(() => {});
  }

  /** Stops starting new writes; the ones in flight finish (with their retries). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** The longest stretch without a successful write, from `since` to the last one. */
  longestGapAfter(since: number): number {
    let last = since;
    let gap = 0;
    for (const t of this.okTimes) {
      if (t < since) continue;
      gap = Math.max(gap, t - last);
      last = t;
    }
    return gap;
  }

  watchFirstWrite(since: number): void {
    this.firstWriteAfter = { since, at: null };
  }
}

/** Pages GET /api/v1/events from a cursor, through any server, on through the outage. */
export class FeedReader {
  readonly ids: string[] = [];
  cursor: string | undefined;
  private stopped = false;
  private running: Promise<void> | null = null;
  unavailable = 0;

  private readonly servers: ServerProcess[];
  private readonly token: string;
  private readonly store: string;
  private readonly onUnexpected: (what: string) => void;

  constructor(servers: ServerProcess[], token: string, store: string, onUnexpected: (what: string) => void) {
    this.servers = servers;
    this.token = token;
    this.store = store;
    this.onUnexpected = onUnexpected;
  }

  /** Reads every page there is now; false when the service could not answer (503, transport). */
  async catchUp(): Promise<boolean> {
    for (let page = 0; page < 1000; page++) {
      const server = this.servers[page % this.servers.length];
      const query = `store_id=${this.store}&limit=200${this.cursor ? `&after=${encodeURIComponent(this.cursor)}` : ''}`;
      const r = await http(server.baseUrl, 'GET', `/api/v1/events?${query}`, {
        token: this.token,
        timeoutMs: REQUEST_TIMEOUT_MS,
      });
      if (r.status === 503 || r.status === 0) {
        this.unavailable++;
        return false;
      }
      if (r.status !== 200) {
        this.onUnexpected(`GET /api/v1/events answered ${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`);
        return false;
      }
      for (const e of r.body.events as Array<{ id: string }>) this.ids.push(e.id);
      this.cursor = r.body.next_cursor;
      if (!r.body.has_more) return true;
    }
    return true;
  }

  start(): void {
    this.running = (async () => {
      while (!this.stopped) {
        await this.catchUp();
        await sleep(200);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}
