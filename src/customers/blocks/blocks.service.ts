// Block, mute, note and archive, for one customer or many: store-scoped, reversible, never a deletion.
import { audit } from '../../platform/audit.ts';
import { inTransaction, type MerchantContext } from '../../platform/context.ts';
import { AppError, badRequest, notFound } from '../../platform/errors/app-error.ts';
import { applyBlockChange, countKnown, type BlockChange } from './blocks.repository.ts';
import { CHANNELS, type BlockBody, type BlockResponse, type BulkBlockBody, type BulkBlockResponse } from './blocks.schemas.ts';

type Inputs = Pick<BlockBody, 'blocked' | 'blocked_channels' | 'block_reason' | 'archived'>;

function toChange(body: Inputs): { change: BlockChange; fields: string[] } {
  const fields = (['blocked', 'blocked_channels', 'block_reason', 'archived'] as const).filter((f) => body[f] !== undefined);
  if (fields.length === 0) throw badRequest('body needs at least one of blocked, blocked_channels, block_reason, archived');
  return {
    change: {
      blocked: body.blocked,
      // Folded and put in the enum's order, so the same set always reads the same.
      blockedChannels: body.blocked_channels && CHANNELS.filter((c) => body.blocked_channels!.includes(c)),
      blockReason: body.block_reason === undefined ? undefined : body.block_reason === '' ? null : body.block_reason,
      archived: body.archived,
    },
    fields,
  };
}

export async function updateBlock(ctx: MerchantContext, customerId: string, body: BlockBody): Promise<BlockResponse> {
  const { change, fields } = toChange(body);
  const storeId = ctx.actor.storeId;
  return inTransaction(ctx, async (tx) => {
    const rows = await applyBlockChange(tx, storeId, [customerId], change, ctx.clock.now().toISOString());
    if (!rows) throw notFound('Customer');
    // Field names only: the note is private and stays out of the audit details.
    await audit(tx, ctx, { action: 'customer.block_updated', entity: 'customer', entityId: customerId, details: { fields } });
    return { customer: rows[0] };
  });
}

export async function updateBlocks(ctx: MerchantContext, body: BulkBlockBody): Promise<BulkBlockResponse> {
  const { change, fields } = toChange(body);
  const storeId = ctx.actor.storeId;
  // uuids compare case-insensitively; fold them so a repeated id counts once in the guard.
  const ids = [...new Set(body.customer_ids.map((id) => id.toLowerCase()))];
  return inTransaction(ctx, async (tx) => {
    const rows = await applyBlockChange(tx, storeId, ids, change, ctx.clock.now().toISOString());
    if (!rows) {
      const unknown = ids.length - (await countKnown(tx, storeId, ids));
      throw new AppError(
        'UNKNOWN_CUSTOMERS',
        `${unknown} of the ${ids.length} customer_ids are not this store's customers; nothing was changed`,
      );
    }
    await audit(tx, ctx, { action: 'customer.block_updated', entity: 'customer', entityId: null, details: { fields, customer_ids: ids } });
    const order = new Map(ids.map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.customer_id)! - order.get(b.customer_id)!);
    return { updated: rows.length, customers: rows };
  });
}
