import type { MerchantContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors/app-error.ts';
import { hasLiveRelationship } from '../activity/relationship.repository.ts';
import { formatCursor, parseCursor } from './journey-cursor.ts';
import { hasStoreAgreements, journeyPage } from './journey.repository.ts';
import type { JourneyQuery } from './journey.schemas.ts';

export async function customerJourney(ctx: MerchantContext, customerId: string, query: JourneyQuery) {
  const storeId = ctx.actor.storeId;
  if (!(await hasLiveRelationship(ctx.db, storeId, customerId))) throw notFound('Customer');
  const rows = await journeyPage(ctx.db, storeId, customerId, parseCursor(query.before), query.limit);
  const events = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  const last = events.at(-1);
  return {
    events,
    pagination: {
      limit: query.limit,
      before: query.before ?? null,
      nextCursor: hasMore && last ? formatCursor(last.cursor_key, last.id) : null,
      hasMore,
    },
    has_store_agreements: await hasStoreAgreements(ctx.db, storeId, customerId),
  };
}
