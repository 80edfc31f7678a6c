// The feed cursor: the position of an event in feed order, (txid, seq), written "<txid>.<seq>".
// Clients treat it as opaque. The start of history is "0.0", which sorts below every event.
import { AppError } from '../platform/errors/app-error.ts';

export interface FeedPosition {
  /** The writing transaction's xid8, as decimal text (it can exceed 2^53). */
  txid: string;
  seq: string;
}

export const START: FeedPosition = Object.freeze({ txid: '0', seq: '0' });

const CURSOR = /^(\d{1,20})\.(\d{1,19})$/;

export function parseFeedCursor(value: string | undefined | null): FeedPosition {
  if (value === undefined || value === null || value === '') return START;
  const m = CURSOR.exec(value);
  if (!m)
    throw new AppError(
      'VALIDATION_FAILED',
      'after must be a cursor returned by the feed (next_cursor or an event stream id)',
    );
  return { txid: m[1], seq: m[2] };
}

export function formatFeedCursor(position: FeedPosition): string {
  return `${position.txid}.${position.seq}`;
}
