// The development mailbox as the merchant's console reads it (outside production only: the routes
// are not registered in production, and production never writes a code to it).
import type { MerchantContext } from '../../platform/context.ts';
import * as repo from './dev-mailbox.repository.ts';
import type { DevMailboxQuery, DevMailboxResponse } from './delivery.schemas.ts';

export async function listDevMailbox(ctx: MerchantContext, query: DevMailboxQuery): Promise<DevMailboxResponse> {
  const now = ctx.clock.now().toISOString();
  await repo.dropExpiredCodes(ctx.db, now);
  const messages = await repo.listMailbox(ctx.db, ctx.actor.storeId, now, query.limit ?? 50);
  return { development_only: true, messages };
}
