// The live stream's engine: ONE pump per process follows the whole feed (every store) by polling
// readFeed every pollMs and hands each event to the subscribers of its store. Events committed
// through any process appear in the feed, so a client of this process sees them within about one
// poll. (LISTEN/NOTIFY was not used: NOTIFY takes a global lock at commit, which costs every write;
// see docs/decisions/events.md.)
//
// Each subscriber keeps its own cursor. A new or resuming subscriber first catches up by reading the
// feed itself after its cursor; a subscriber whose socket pushes back (write answers false) stops
// taking events from the pump and catches up the same way once drained. Nothing is buffered beyond
// one page, however slow the client. See subscriber.ts for the hand-over that keeps it exact.
import type { Database } from '../../platform/db/port.ts';
import type { FeedPosition } from '../feed-cursor.ts';
import { feedHead, readFeed, type FeedRow } from '../feed.repository.ts';

export interface PumpOptions {
  pollMs: number;
  heartbeatMs: number;
}

interface Log {
  warn(obj: object, msg: string): void;
}

const PAGE = 1000;

/**
 * What the pump needs of a subscriber: the pump owns this type and subscriber.ts implements it, so
 * the import runs one way (the subscriber knows the pump; the pump knows only this).
 */
export interface PumpSubscriber {
  readonly storeId: string;
  /** An event of the subscriber's store, in feed order. */
  offer(row: FeedRow): void;
  heartbeat(): void;
  end(): void;
}

export class EventPump {
  /** The position of the last event handed out; null while there are no subscribers. */
  private cursor: FeedPosition | null = null;
  private starting: Promise<void> | null = null;
  private readonly subscribers = new Map<string, Set<PumpSubscriber>>();
  private pollTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private closed = false;

  readonly db: Database;
  readonly options: PumpOptions;
  readonly log: Log;

  constructor(db: Database, options: PumpOptions, log: Log) {
    this.db = db;
    this.options = options;
    this.log = log;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** How many clients are connected (tests and diagnostics). */
  get size(): number {
    let n = 0;
    for (const set of this.subscribers.values()) n += set.size;
    return n;
  }

  /** Registers the subscriber once the pump has a position (so its catch-up hands over exactly). */
  async add(sub: PumpSubscriber): Promise<void> {
    if (this.closed) throw new Error('event pump closed');
    await this.start();
    let set = this.subscribers.get(sub.storeId);
    if (!set) this.subscribers.set(sub.storeId, (set = new Set()));
    set.add(sub);
  }

  remove(sub: PumpSubscriber): void {
    const set = this.subscribers.get(sub.storeId);
    if (!set?.delete(sub)) return;
    if (set.size === 0) this.subscribers.delete(sub.storeId);
    if (this.subscribers.size === 0 && !this.starting) this.stop();
  }

  /**
   * True when every event handed out so far belongs to a transaction older than horizon: a
   * subscriber that has read the feed below that horizon has seen all of them (for its store).
   */
  handedOutBelow(horizon: string): boolean {
    return this.cursor === null || BigInt(this.cursor.txid) < BigInt(horizon);
  }

  private start(): Promise<void> {
    if (this.cursor !== null) return Promise.resolve();
    this.starting ??= (async () => {
      try {
        // "Now" in feed order: events after it are handed out; earlier ones are read by catch-up.
        this.cursor = await feedHead(this.db);
        this.pollTimer = setInterval(() => void this.poll(), this.options.pollMs);
        this.heartbeatTimer = setInterval(() => this.heartbeat(), this.options.heartbeatMs);
      } finally {
        this.starting = null;
      }
    })();
    return this.starting;
  }

  private stop(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.pollTimer = this.heartbeatTimer = null;
    this.cursor = null;
  }

  private poll(): Promise<void> {
    if (this.polling || this.closed || this.cursor === null) return this.polling ?? Promise.resolve();
    this.polling = this.pollPages().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  private async pollPages(): Promise<void> {
    try {
      for (;;) {
        const from = this.cursor;
        if (from === null) return;
        const rows = await readFeed(this.db, { storeId: null, after: from, limit: PAGE });
        if (this.cursor === null || this.closed) return; // stopped meanwhile
        // Synchronous: between two awaits the cursor always covers everything handed out.
        for (const row of rows) {
          this.cursor = { txid: row.txid, seq: row.seq };
          const set = this.subscribers.get(row.store_id);
          if (set) for (const sub of set) sub.offer(row);
        }
        if (rows.length < PAGE) return;
      }
    } catch (err) {
      if (!this.closed)
        this.log.warn({ err: { message: (err as Error).message } }, 'event stream poll failed; retrying');
    }
  }

  private heartbeat(): void {
    for (const set of this.subscribers.values()) for (const sub of set) sub.heartbeat();
  }

  /** Ends every stream and waits for a poll in progress (app close: no query after the pool closes). */
  async close(): Promise<void> {
    this.closed = true;
    for (const set of [...this.subscribers.values()]) for (const sub of [...set]) sub.end();
    this.subscribers.clear();
    this.stop();
    await this.polling;
  }
}
