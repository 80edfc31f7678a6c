// The timetable's classes: create, read, change, archive. Not a hot write: several statements in
// inTransaction. A capacity change reaches the future occurrences that set none of their own,
// decided under each occurrence's lock by bbo_class_reseat (db/functions/class-reseat.sql).
import { audit } from '../platform/audit.ts';
import { inTransaction, type MerchantContext } from '../platform/context.ts';
import { refusalOf } from '../platform/db/pg-errors.ts';
import { AppError, notFound } from '../platform/errors/app-error.ts';
import type { ErrorCode } from '../platform/errors/error-codes.ts';
import { emit } from '../events/outbox.ts';
import type { EventType } from '../events/event-types.ts';
import * as repo from './classes.repository.ts';
import type { ClassRecord, CreateClassBody, UpdateClassBody } from './classes.schemas.ts';

async function assertUnit(
  ctx: MerchantContext,
  q: Parameters<typeof repo.unitExists>[0],
  unitId: string | null | undefined,
): Promise<void> {
  if (unitId && !(await repo.unitExists(q, ctx.actor.storeId, unitId))) throw notFound('Instructor unit');
}

export async function createClass(ctx: MerchantContext, body: CreateClassBody): Promise<{ class: ClassRecord }> {
  return inTransaction(ctx, async (tx) => {
    await assertUnit(ctx, tx, body.instructor_unit_id);
    const created = await repo.insertClass(tx, ctx.actor.storeId, body, ctx.clock.now());
    await audit(tx, ctx, {
      action: 'class.created',
      entity: 'class',
      entityId: created.id,
      details: { name: created.name, capacity: created.capacity },
    });
    return { class: created };
  });
}

export async function listClasses(ctx: MerchantContext, includeArchived: boolean): Promise<{ classes: ClassRecord[] }> {
  return { classes: await repo.listClasses(ctx.db, ctx.actor.storeId, includeArchived) };
}

export async function getClass(ctx: MerchantContext, id: string): Promise<{ class: ClassRecord }> {
  const found = await repo.findClass(ctx.db, ctx.actor.storeId, id);
  if (!found) throw notFound('Class');
  return { class: found };
}

/** Partial update; archived true archives (never deletes), false restores. */
export async function updateClass(
  ctx: MerchantContext,
  id: string,
  body: UpdateClassBody,
): Promise<{ class: ClassRecord }> {
  const storeId = ctx.actor.storeId;
  return inTransaction(ctx, async (tx) => {
    // The class row first, then its occurrences (bbo_class_reseat): the order every writer takes.
    const before = await repo.findClass(tx, storeId, id, true);
    if (!before) throw notFound('Class');
    await assertUnit(ctx, tx, body.instructor_unit_id);
    const now = ctx.clock.now();
    const after = await repo.updateClass(tx, storeId, id, body, now);
    if (after.capacity !== before.capacity) {
      let events;
      try {
        events = await repo.reseatClass(tx, storeId, id, now);
      } catch (err) {
        const refusal = refusalOf(err);
        if (refusal) throw new AppError(refusal.code as ErrorCode, refusal.message);
        throw err;
      }
      for (const e of events) await emit(tx, { storeId, type: e.type as EventType, data: e.data }, now);
    }
    const changed = Object.keys(body).filter((k) => k !== 'store_id');
    await audit(tx, ctx, {
      action: 'class.updated',
      entity: 'class',
      entityId: id,
      details: { changed_fields: changed },
    });
    return { class: after };
  });
}
