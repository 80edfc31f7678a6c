// Units: what gets booked (a staff member, a chair, a room, a table). Store-scoped; a unit of
// another store reads as missing. A unit is never deleted (appointments reference it): it is
// deactivated with is_active false.
import { audit } from '../../platform/audit.ts';
import { inTransaction, type MerchantContext } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import { lockUnits } from '../booking-authority.ts';
import type { CreateUnitBody, ListUnitsQuery, Unit, UpdateUnitBody } from './unit.schemas.ts';
import {
  countUpcomingAppointments,
  findUnit,
  insertUnit,
  listUnits,
  updateUnit,
  WRITABLE_UNIT_FIELDS,
  type UnitChanges,
} from './units.repository.ts';

export async function listStoreUnits(ctx: MerchantContext, query: ListUnitsQuery): Promise<{ units: Unit[] }> {
  return { units: await listUnits(ctx.db, ctx.actor.storeId, query.include_inactive ?? false) };
}

function writableFields(body: Record<string, unknown>): UnitChanges {
  const changes: UnitChanges = {};
  for (const field of WRITABLE_UNIT_FIELDS) if (body[field] !== undefined) changes[field] = body[field];
  return changes;
}

export async function createUnit(ctx: MerchantContext, body: CreateUnitBody): Promise<{ unit: Unit }> {
  const storeId = ctx.actor.storeId;
  const fields = writableFields(body);
  return inTransaction(ctx, async (tx) => {
    const unit = await insertUnit(tx, storeId, fields, ctx.clock.now());
    await audit(tx, ctx, {
      action: 'unit.created',
      entity: 'unit',
      entityId: unit.id,
      details: { fields: Object.keys(fields) },
    });
    return { unit };
  });
}

export async function updateStoreUnit(
  ctx: MerchantContext,
  unitId: string,
  body: UpdateUnitBody,
): Promise<{ unit: Unit }> {
  const storeId = ctx.actor.storeId;
  const changes = writableFields(body);
  return inTransaction(ctx, async (tx) => {
    // The same row lock the booking authority takes: a booking and a deactivation of one unit
    // serialise, so a booking can never land on a unit that is leaving the diary.
    await lockUnits(tx, storeId, [unitId]);
    const current = await findUnit(tx, storeId, unitId);
    if (!current) throw notFound('Unit');
    const changed = WRITABLE_UNIT_FIELDS.filter((f) => f in changes && changes[f] !== current[f]);
    if (changed.length === 0) return { unit: current };

    // A unit that leaves the diary (inactive or unbookable) would hide its upcoming appointments.
    const leavesDiary =
      (changes.is_active === false && current.is_active) || (changes.bookable === false && current.bookable);
    if (leavesDiary) {
      const upcoming = await countUpcomingAppointments(tx, storeId, unitId, ctx.clock.now());
      if (upcoming > 0) {
        throw new AppError(
          'UNIT_HAS_BOOKINGS',
          `The unit has ${upcoming} upcoming appointment(s); move or cancel them first`,
        );
      }
    }
    const unit = await updateUnit(tx, storeId, unitId, changes, ctx.clock.now());
    const action =
      changes.is_active === false && current.is_active
        ? 'unit.deactivated'
        : changes.is_active === true && !current.is_active
          ? 'unit.reactivated'
          : 'unit.updated';
    await audit(tx, ctx, { action, entity: 'unit', entityId: unitId, details: { changed_fields: changed } });
    return { unit };
  });
}
