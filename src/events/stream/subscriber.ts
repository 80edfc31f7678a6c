// One live stream client. It starts by catching up: reading its store's feed after its cursor, page
// by page, writing each event. When a read comes back short, it has every event of a transaction
// older than that read's horizon; if everything the pump has handed out is below that horizon too,
// it goes live and takes events from the pump from then on (ignoring any at or before its cursor,
// which it already wrote). Otherwise it reads again. So the hand-over neither misses nor repeats.
//
// If the socket pushes back while live, the subscriber stops taking events from the pump, waits for
// the drain and catches up from the feed: a slow client costs a feed read, never an unbounded buffer.
import type { PassThrough } from 'node:stream';
import type { Queryable } from '../../platform/db/port.ts';
import { formatFeedCursor, type FeedPosition } from '../feed-cursor.ts';
import { readFeedPage, type FeedRow } from '../feed.repository.ts';
import { presentEvent } from '../events.service.ts';
import type { EventPump, PumpSubscriber } from './event-pump.ts';

const PAGE = 500;

function isAfter(row: FeedRow, position: FeedPosition): boolean {
  const a = BigInt(row.txid);
  const b = BigInt(position.txid);
  return a > b || (a === b && BigInt(row.seq) > BigInt(position.seq));
}

export class StreamSubscriber implements PumpSubscriber {
  private live = false;
  private catching = false;
  private closed = false;

  readonly storeId: string;
  private readonly types: readonly string[] | null;
  private cursor: FeedPosition;
  private readonly out: PassThrough;
  private readonly pump: EventPump;
  private readonly db: Queryable;

  constructor(
    storeId: string,
    types: readonly string[] | null,
    cursor: FeedPosition,
    out: PassThrough,
    pump: EventPump,
    db: Queryable,
  ) {
    this.storeId = storeId;
    this.types = types;
    this.cursor = cursor;
    this.out = out;
    this.pump = pump;
    this.db = db;
    out.on('close', () => this.end());
  }

  /** An event of this store from the pump, in feed order. */
  offer(row: FeedRow): void {
    if (!this.live || this.closed || !isAfter(row, this.cursor)) return;
    this.cursor = { txid: row.txid, seq: row.seq };
    if (this.types && !this.types.includes(row.type)) return;
    if (!this.write(row)) {
      // Pushed back: stop taking events from the pump; read them from the feed once drained.
      this.live = false;
      void this.drained().then(() => this.catchUp());
    }
  }

  heartbeat(): void {
    if (!this.closed && this.out.writableLength === 0) this.out.write(': heartbeat\n\n');
  }

  private write(row: FeedRow): boolean {
    return this.out.write(
      `id: ${formatFeedCursor(row)}\nevent: ${row.type}\ndata: ${JSON.stringify(presentEvent(row))}\n\n`,
    );
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.out.off('drain', done);
        this.out.off('close', done);
        resolve();
      };
      this.out.on('drain', done);
      this.out.on('close', done);
    });
  }

  async catchUp(): Promise<void> {
    if (this.catching || this.closed || this.live) return;
    this.catching = true;
    try {
      for (;;) {
        const page = await readFeedPage(this.db, {
          storeId: this.storeId,
          after: this.cursor,
          limit: PAGE,
          types: this.types,
        });
        if (this.closed) return;
        let pushedBack = false;
        for (const row of page.rows) {
          this.cursor = { txid: row.txid, seq: row.seq };
          if (!this.write(row)) pushedBack = true;
        }
        if (pushedBack) {
          await this.drained();
          if (this.closed) return;
          continue;
        }
        if (page.rows.length === PAGE) continue;
        if (this.pump.handedOutBelow(page.horizon)) {
          this.live = true;
          return;
        }
        // The pump read a later snapshot than this one: read again, a moment later.
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (this.closed) return;
      }
    } catch (err) {
      if (!this.closed)
        this.pump.log.warn(
          { err: { message: (err as Error).message } },
          'event stream catch-up failed; closing the stream',
        );
      this.end();
    } finally {
      this.catching = false;
    }
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.live = false;
    this.pump.remove(this);
    if (!this.out.writableEnded) this.out.end();
  }
}
