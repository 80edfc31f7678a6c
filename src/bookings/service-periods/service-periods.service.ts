// Service periods (for example Lunch, Dinner): the store's serving windows per weekday.
import type { MerchantContext } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { audit } from '../../platform/audit.ts';
import { emit } from '../../events/outbox.ts';
import { changedFields } from '../../events/changes.ts';
import { notFound } from '../../platform/errors/app-error.ts';
import * as repo from './service-periods.repository.ts';
import type { CreateBody, ServicePeriod, UpdateBody } from './service-periods.schemas.ts';
import { assertWeekWindows } from './week.ts';

export async function listServicePeriods(
  ctx: MerchantContext,
  includeArchived: boolean,
): Promise<{ periods: ServicePeriod[] }> {
  return { periods: await repo.listPeriods(ctx.db, ctx.actor.storeId, includeArchived) };
}

export async function createServicePeriod(ctx: MerchantContext, body: CreateBody): Promise<{ period: ServicePeriod }> {
  if (body.week) assertWeekWindows(body.week);
  const storeId = ctx.actor.storeId;
  return inTransaction(ctx, async (tx) => {
    const storeOffset = await repo.storeLastSeatingOffset(tx, storeId);
    if (storeOffset === undefined) throw notFound('Store');
    // The period records its own offset: the store's value at creation time, or 0 when the store has none.
    const offset = body.last_seating_offset_min ?? storeOffset ?? 0;
    const clientToken = body.client_token ?? null;
    const created = await repo.insertPeriod(tx, {
      storeId,
      clientToken,
      name: body.name,
      sort: body.sort ?? 0,
      week: body.week ?? {},
      lastSeatingOffsetMin: offset,
      now: ctx.clock.now().toISOString(),
    });
    if (created) {
      await audit(tx, ctx, { action: 'service_period.create', entity: 'service_period', entityId: created.id });
      await emit(tx, { storeId, type: 'service_period.created', data: created }, ctx.clock.now());
      return { period: created };
    }
    // The token was used before (maybe by a concurrent request that just committed): that period is the answer.
    const existing = clientToken ? await repo.findPeriodByToken(tx, storeId, clientToken) : null;
    if (!existing) throw new Error('client_token conflict without a row to return');
    return { period: existing };
  });
}

export async function updateServicePeriod(
  ctx: MerchantContext,
  periodId: string,
  body: UpdateBody,
): Promise<{ period: ServicePeriod }> {
  if (body.week) assertWeekWindows(body.week);
  const { store_id: _storeId, ...changes } = body;
  const storeId = ctx.actor.storeId;
  return inTransaction(ctx, async (tx) => {
    const before = await repo.lockPeriod(tx, storeId, periodId);
    if (!before) throw notFound('Service period');
    const period = await repo.updatePeriod(tx, storeId, periodId, changes, ctx.clock.now().toISOString());
    if (!period) throw notFound('Service period');
    // A change that changes nothing emits nothing.
    const changed = changedFields(before, period);
    if (changed.length > 0) {
      await emit(
        tx,
        {
          storeId,
          type: 'service_period.updated',
          data: { ...period, changed_fields: changed, previous: pick(before, changed) },
        },
        ctx.clock.now(),
      );
    }
    await audit(tx, ctx, {
      action: 'service_period.update',
      entity: 'service_period',
      entityId: period.id,
      details: { fields: Object.keys(changes) },
    });
    return { period };
  });
}

export async function deleteServicePeriod(
  ctx: MerchantContext,
  periodId: string,
): Promise<{ period_id: string; removed: boolean }> {
  const storeId = ctx.actor.storeId;
  return inTransaction(ctx, async (tx) => {
    const removed = await repo.deletePeriod(tx, storeId, periodId);
    if (removed) {
      await audit(tx, ctx, {
        action: 'service_period.delete',
        entity: 'service_period',
        entityId: periodId,
        details: { name: removed.name },
      });
      await emit(tx, { storeId, type: 'service_period.deleted', data: removed }, ctx.clock.now());
      return { period_id: periodId, removed: true };
    }
    // Another store's period is, for this store, nothing there: answering it like a missing id
    // keeps another store's ids from being probed.
    return { period_id: periodId, removed: false };
  });
}

function pick(record: object, fields: readonly string[]): Record<string, unknown> {
  const r = record as Record<string, unknown>;
  return Object.fromEntries(fields.map((f) => [f, r[f]]));
}
