// The signed-in customer's notification preferences. The customer is always the token's: nothing
// in a request can name another customer.
import { audit } from '../platform/audit.ts';
import { inTransaction, type CustomerContext } from '../platform/context.ts';
import { emit } from '../events/outbox.ts';
import { listForCustomer, upsertPreferences } from './preferences.repository.ts';
import {
  DEFAULT_TOGGLES,
  TOGGLE_NAMES,
  type ListResponse,
  type Toggles,
  type UpsertBody,
  type UpsertResponse,
} from './preferences.schemas.ts';

export async function listPreferences(ctx: CustomerContext): Promise<ListResponse> {
  const rows = await listForCustomer(ctx.db, ctx.actor.customerId);
  return {
    preferences: rows.map((row) => ({
      storeId: row.storeId,
      storeName: row.storeName,
      ...(Object.fromEntries(TOGGLE_NAMES.map((t) => [t, row[t] ?? DEFAULT_TOGGLES[t]])) as Toggles),
    })),
  };
}

export async function savePreferences(ctx: CustomerContext, body: UpsertBody): Promise<UpsertResponse> {
  const { storeId: rawStoreId, ...toggles } = body;
  const storeId = rawStoreId.toLowerCase();
  const given: Partial<Toggles> = Object.fromEntries(
    TOGGLE_NAMES.filter((t) => toggles[t] !== undefined).map((t) => [t, toggles[t]]),
  );
  return inTransaction(ctx, async (tx) => {
    const saved = await upsertPreferences(tx, ctx.actor.customerId, storeId, given, ctx.clock.now().toISOString());
    await audit(tx, ctx, {
      action: 'notification_preferences.saved',
      entity: 'notification_preferences',
      entityId: ctx.actor.customerId,
      details: { store_id: storeId, toggles: given },
    });
    // The customer's own change, recorded for the store it names. A save that leaves every effective
    // toggle as it was (a repeat, or a first save of the defaults) emits nothing.
    const before = saved.previous ?? DEFAULT_TOGGLES;
    const changed = TOGGLE_NAMES.filter((t) => saved.toggles[t] !== before[t]);
    if (changed.length > 0) {
      await emit(
        tx,
        {
          storeId,
          type: 'notification_preferences.updated',
          data: { customer_id: ctx.actor.customerId, store_id: storeId, ...saved.toggles, changed_fields: changed },
        },
        ctx.clock.now(),
      );
    }
    return { storeId, updated: true };
  });
}
