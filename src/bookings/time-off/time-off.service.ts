// Time-off entries: explicit time off, or a manual lunch or errand block, on one unit. While an
// entry exists the booking authority refuses bookings over it (unless override).
import { audit } from '../../platform/audit.ts';
import { inTransaction, type MerchantContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { lockUnits } from '../booking-authority.ts';
import type { CreateTimeOffBody, TimeOffRecord } from './time-off.schemas.ts';
import { countOverlapping, deleteTimeOff, findTimeOff, insertTimeOff } from './time-off.repository.ts';

export async function createTimeOff(
  ctx: MerchantContext,
  body: CreateTimeOffBody,
): Promise<{ time_off: TimeOffRecord }> {
  const storeId = ctx.actor.storeId;
  if (!(Date.parse(body.ends_at) > Date.parse(body.starts_at))) {
    throw new AppError('INVALID_TIME_RANGE', 'ends_at must be after starts_at');
  }
  return inTransaction(ctx, async (tx) => {
    // The unit row lock the booking authority takes: this check and a concurrent booking of the
    // same unit serialise, so neither can slip past the other.
    await lockUnits(tx, storeId, [body.unit_id]);
    const overlapping = await countOverlapping(tx, storeId, body.unit_id, body.starts_at, body.ends_at);
    if (!body.override) {
      const clashes = overlapping.appointments;
      if (clashes > 0) {
        throw new AppError(
          'SLOT_TAKEN',
          `The unit has ${clashes} appointment(s) in that time; move them or send override: true`,
        );
      }
    }
    // A class the unit teaches is not the shop's to override here: cancel or move the occurrence
    // (the class door checks time-off under this same lock, db/functions/classes.sql).
    const classes = overlapping.classes;
    if (classes > 0) {
      throw new AppError(
        'CLASS_SCHEDULED',
        `The unit teaches ${classes} class occurrence(s) in that time; cancel them first`,
      );
    }
    const entry = await insertTimeOff(
      tx,
      {
        storeId,
        unitId: body.unit_id,
        startsAt: body.starts_at,
        endsAt: body.ends_at,
        kind: body.kind,
        reason: body.reason ?? null,
        createdBy: ctx.actor.userId,
      },
      ctx.clock.now(),
    );
    // The reason is the shop's private note; the audit row keeps the facts only.
    await audit(tx, ctx, {
      action: 'time_off.created',
      entity: 'time_off',
      entityId: entry.id,
      details: {
        unit_id: entry.unit_id,
        kind: entry.kind,
        starts_at: entry.starts_at,
        ends_at: entry.ends_at,
        override: body.override ?? false,
      },
    });
    return { time_off: entry };
  });
}

export async function removeTimeOff(
  ctx: MerchantContext,
  id: string,
): Promise<{ time_off_id: string; removed: boolean }> {
  const storeId = ctx.actor.storeId;
  return inTransaction(ctx, async (tx) => {
    const entry = await findTimeOff(tx, storeId, id);
    if (!entry) return { time_off_id: id, removed: false };
    await lockUnits(tx, storeId, [entry.unit_id]);
    const removed = await deleteTimeOff(tx, storeId, id);
    if (removed) {
      await audit(tx, ctx, {
        action: 'time_off.removed',
        entity: 'time_off',
        entityId: id,
        details: { unit_id: entry.unit_id, kind: entry.kind, starts_at: entry.starts_at, ends_at: entry.ends_at },
      });
    }
    return { time_off_id: id, removed };
  });
}
