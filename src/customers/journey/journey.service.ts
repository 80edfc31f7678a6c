import type { MerchantContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors/app-error.ts';
import { hasLiveRelationship } from '../store-customer.repository.ts';
import { formatCursor, parseCursor } from './journey-cursor.ts';
import { hasStoreAgreements, journeyPage } from './journey.repository.ts';
import { JOURNEY_PAGE, type JourneyQuery } from './journey.schemas.ts';
import { readHandle } from '../../platform/db/read-routing.plugin.ts';

export async function customerJourney(ctx: MerchantContext, customerId: string, query: JourneyQuery) {
  const storeId = ctx.actor.storeId;
  const db = await readHandle(ctx); // the replica when it has every write this store made
  if (!(await hasLiveRelationship(db, storeId, customerId))) throw notFound('Customer');
  const limit = query.limit ?? JOURNEY_PAGE.default; // filled by the schema; the fallback satisfies the type checker
  const rows = await journeyPage(db, storeId, customerId, parseCursor(query.before), limit);
  const events = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = events.at(-1);
  return {
    events,
    pagination: {
      limit,
      before: query.before ?? null,
      nextCursor: hasMore && last ? formatCursor(last.cursor_key, last.id) : null,
      hasMore,
    },
    has_store_agreements: await hasStoreAgreements(db, storeId, customerId),
  };
}
