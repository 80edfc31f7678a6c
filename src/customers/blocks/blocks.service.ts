// Block, mute, note and archive, for one customer or many: store-scoped, reversible, never a deletion.
import { audit } from '../../platform/audit.ts';
import { inTransaction, type MerchantContext } from '../../platform/context.ts';
import { AppError, badRequest, notFound } from '../../platform/errors/app-error.ts';
import type { Tx } from '../../platform/db/port.ts';
import { emit } from '../../events/outbox.ts';
import type { EventType } from '../../events/event-types.ts';
import { applyBlockChange, countKnown, type BlockChange, type BlockChangeRow } from './blocks.repository.ts';
import {
  CHANNELS,
  type BlockBody,
  type BlockRecord,
  type BlockResponse,
  type BulkBlockBody,
  type BulkBlockResponse,
} from './blocks.schemas.ts';

type Inputs = Pick<BlockBody, 'blocked' | 'blocked_channels' | 'block_reason' | 'archived'>;

function toChange(body: Inputs): { change: BlockChange; fields: string[] } {
  const fields = (['blocked', 'blocked_channels', 'block_reason', 'archived'] as const).filter(
    (f) => body[f] !== undefined,
  );
  if (fields.length === 0)
    throw badRequest('body needs at least one of blocked, blocked_channels, block_reason, archived');
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

function recordOf(row: BlockChangeRow): BlockRecord {
  const { was_blocked: _b, was_archived: _a, was_channels: _c, reason_changed: _r, ...record } = row;
  return record;
}

/**
 * The events of one customer's change, none when nothing changed: blocked/unblocked and
 * archived/restored for those flips, otherwise customer.updated for a new channel list or note.
 * The block note is the merchant's private text and never leaves in an event (docs/decisions/events.md).
 */
async function emitBlockEvents(tx: Tx, storeId: string, row: BlockChangeRow, now: Date): Promise<void> {
  const changed: string[] = [];
  if (row.blocked !== row.was_blocked) changed.push('blocked');
  if (row.blocked_channels.join() !== row.was_channels.join()) changed.push('blocked_channels');
  if (row.reason_changed) changed.push('block_reason');
  if (row.archived !== row.was_archived) changed.push('archived');
  if (changed.length === 0) return;
  const { block_reason: _note, ...shared } = recordOf(row);
  const data = { id: row.customer_id, ...shared, changed_fields: changed };
  const types: EventType[] = [];
  if (row.blocked !== row.was_blocked) types.push(row.blocked ? 'customer.blocked' : 'customer.unblocked');
  if (row.archived !== row.was_archived) types.push(row.archived ? 'customer.archived' : 'customer.restored');
  if (types.length === 0) types.push('customer.updated');
  for (const type of types) await emit(tx, { storeId, type, data }, now);
}

export async function updateBlock(ctx: MerchantContext, customerId: string, body: BlockBody): Promise<BlockResponse> {
  const { change, fields } = toChange(body);
  const storeId = ctx.actor.storeId;
  return inTransaction(ctx, async (tx) => {
    const rows = await applyBlockChange(tx, storeId, [customerId], change, ctx.clock.now().toISOString());
    if (!rows) throw notFound('Customer');
    // Field names only: the note is private and stays out of the audit details.
    await audit(tx, ctx, {
      action: 'customer.block_updated',
      entity: 'customer',
      entityId: customerId,
      details: { fields },
    });
    await emitBlockEvents(tx, storeId, rows[0], ctx.clock.now());
    return { customer: recordOf(rows[0]) };
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
    await audit(tx, ctx, {
      action: 'customer.block_updated',
      entity: 'customer',
      entityId: null,
      details: { fields, customer_ids: ids },
    });
    const order = new Map(ids.map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.customer_id)! - order.get(b.customer_id)!);
    // One event per customer that changed, in the request's order.
    for (const row of rows) await emitBlockEvents(tx, storeId, row, ctx.clock.now());
    return { updated: rows.length, customers: rows.map(recordOf) };
  });
}
