// Reading the outbox in feed order. One statement, composed of named parts:
//
//  - horizon: the oldest transaction still running when this statement's snapshot was taken
//    (pg_snapshot_xmin). Every transaction with a smaller id has finished, committed or not, so an
//    event below the horizon that is not visible now never will be. Returning only events below the
//    horizon, in (txid, seq) order, means no event can later appear before a position already
//    returned: a reader that resumes after its last position never skips and never repeats.
//    (An id-only cursor would skip: sequence numbers are taken in one order and committed in
//    another.) The price is lag: an event waits until every older transaction has finished, which
//    is one transaction's length in a write storm.
//  - after: strictly past the reader's position.
//  - store and types: one store's feed, optionally only some types (events_store_order index).
// A reader whose position is kept in a row (a cursor table) brings it in as parameters or scalar
// subqueries, never by joining the row: joined, the comparison is a filter over every kept event,
// not the start of an index range (the webhook dispatcher's pass did that until round 12).
import type { Queryable } from '../platform/db/port.ts';
import type { FeedPosition } from './feed-cursor.ts';
import type { EventActor } from '../platform/audit.ts';

export interface EventRecord {
  id: string;
  type: string;
  store_id: string;
  occurred_at: string;
  occurred_at_local: string;
  timezone: string;
  /** Who made the change (audit.ts eventActor); null on events from before the column, or no request's. */
  actor: EventActor | null;
  data: Record<string, unknown>;
}

export interface FeedRow extends EventRecord {
  txid: string;
  seq: string;
}

export interface FeedQuery {
  /** One store's events; null reads every store's (the delivery worker's dispatcher). */
  storeId: string | null;
  after: FeedPosition;
  limit: number;
  types?: readonly string[] | null;
}

export async function readFeed(db: Queryable, q: FeedQuery): Promise<FeedRow[]> {
  const res = await db.query<FeedRow>(
    `SELECT e.txid::text AS txid, e.seq::text AS seq, e.id, e.type, e.store_id, e.occurred_at,
            e.occurred_at_local, e.timezone, e.actor, e.data
       FROM events e
      WHERE e.txid < pg_snapshot_xmin(pg_current_snapshot())              -- horizon
        AND (e.txid, e.seq) > ($1::xid8, $2::bigint)                       -- after
        AND ($3::uuid IS NULL OR e.store_id = $3)                          -- store
        AND ($4::text[] IS NULL OR e.type = ANY($4::text[]))               -- types
      ORDER BY e.txid, e.seq
      LIMIT $5`,
    [q.after.txid, q.after.seq, q.storeId, q.types?.length ? q.types : null, q.limit],
  );
  return res.rows;
}

export interface FeedPage {
  rows: FeedRow[];
  /**
   * The horizon this read stopped at (a transaction id, decimal text): when fewer than limit rows
   * came back, every matching event of a transaction older than this was returned.
   */
  horizon: string;
}

/** readFeed, also answering the horizon it read below (the live stream's catch-up needs it). */
export async function readFeedPage(db: Queryable, q: FeedQuery): Promise<FeedPage> {
  const res = await db.query<FeedRow & { horizon: string }>(
    `SELECT h.horizon::text AS horizon, e.*
       FROM (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon) h
       LEFT JOIN LATERAL (
         SELECT e.txid::text AS txid, e.seq::text AS seq, e.id, e.type, e.store_id, e.occurred_at,
                e.occurred_at_local, e.timezone, e.actor, e.data
           FROM events e
          WHERE e.txid < h.horizon
            AND (e.txid, e.seq) > ($1::xid8, $2::bigint)
            AND ($3::uuid IS NULL OR e.store_id = $3)
            AND ($4::text[] IS NULL OR e.type = ANY($4::text[]))
          ORDER BY e.txid, e.seq
          LIMIT $5
       ) e ON true`,
    [q.after.txid, q.after.seq, q.storeId, q.types?.length ? q.types : null, q.limit],
  );
  const horizon = res.rows[0]?.horizon ?? '0';
  const rows = res.rows.filter((r) => r.txid !== null).map(({ horizon: _h, ...row }) => row as FeedRow);
  return { rows, horizon };
}

/** The position of the newest event below the horizon (every store's): "now" in feed order. */
export async function feedHead(db: Queryable): Promise<FeedPosition> {
  const res = await db.query<{ txid: string; seq: string }>(
    `SELECT e.txid::text AS txid, e.seq::text AS seq FROM events e
      WHERE e.txid < pg_snapshot_xmin(pg_current_snapshot())
      ORDER BY e.txid DESC, e.seq DESC LIMIT 1`,
  );
  return res.rows[0] ?? { txid: '0', seq: '0' };
}
