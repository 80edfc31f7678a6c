// The pull feed: one store's events in feed order after a cursor, checked against retention.
import type { MerchantContext } from '../platform/context.ts';
import { AppError } from '../platform/errors/app-error.ts';
import { isEventType } from './event-types.ts';
import { formatFeedCursor, parseFeedCursor } from './feed-cursor.ts';
import { readFeed, type FeedRow } from './feed.repository.ts';
import { assertRetained } from './retention.ts';
import { DEFAULT_LIMIT, type FeedEvent, type FeedQuery, type FeedResponse } from './events.schemas.ts';

/** The types filter: null for all; unknown names are refused, all of them named. */
export function parseTypes(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const names = [
    ...new Set(
      raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = names.filter((n) => !isEventType(n));
  if (unknown.length)
    throw new AppError('VALIDATION_FAILED', `query.types names unknown event types: ${unknown.join(', ')}`);
  return names.length ? names : null;
}

export function presentEvent(row: FeedRow): FeedEvent {
  return {
    id: row.id,
    type: row.type,
    store_id: row.store_id,
    occurred_at: row.occurred_at,
    occurred_at_local: row.occurred_at_local,
    timezone: row.timezone,
    actor: row.actor ?? null,
    cursor: formatFeedCursor(row),
    data: row.data,
  };
}

export async function readEvents(ctx: MerchantContext, query: FeedQuery): Promise<FeedResponse> {
  const storeId = ctx.actor.storeId;
  const types = parseTypes(query.types);
  const after = parseFeedCursor(query.after);
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (query.after) await assertRetained(ctx.db, storeId, after);
  const rows = await readFeed(ctx.db, { storeId, after, limit: limit + 1, types });
  const page = rows.slice(0, limit);
  return {
    events: page.map(presentEvent),
    next_cursor: page.length ? formatFeedCursor(page.at(-1)!) : formatFeedCursor(after),
    has_more: rows.length > limit,
  };
}
