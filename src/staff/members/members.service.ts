// A store's staff: list, and change role, permissions, unit or disabled. The rules, checked with
// the rows locked: nobody raises their own role or permissions; nobody gives or touches a role
// above their own (so a manager never makes, changes or removes an owner); the store keeps at least
// one enabled owner. Disabling ends every session of the person at the store at once.
import { audit } from '../../platform/audit.ts';
import { inTransaction, type MerchantContext } from '../../platform/context.ts';
import { pgCode } from '../../platform/db/pg-errors.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import { actingRole } from '../invitations/invitations.service.ts';
import { ROLE_RANK } from '../roles.ts';
import { endAllSessions } from '../sessions/sessions.repository.ts';
import type { StaffPatch } from '../staff.schemas.ts';
import * as repo from './members.repository.ts';

export async function listStaff(ctx: MerchantContext) {
  return { staff: await repo.listMembers(ctx.db, ctx.actor.storeId) };
}

export async function updateStaff(ctx: MerchantContext, staffId: string, patch: StaffPatch) {
  const storeId = ctx.actor.storeId;
  const mine = actingRole(ctx.actor);
  const self = ctx.actor.staff?.via === 'session' && ctx.actor.staff.id === staffId;
  const at = ctx.clock.now();
  try {
    return await inTransaction(ctx, async (tx) => {
      const before = await repo.lockForChange(tx, storeId, staffId);
      if (!before) throw notFound('Staff member');
      const role = patch.role ?? before.role;
      const permissions = patch.permissions ?? before.permissions;
      const unitId = patch.unit_id === undefined ? before.unit_id : patch.unit_id;
      const disabled = patch.disabled ?? before.disabled;
      if (ROLE_RANK[before.role] > ROLE_RANK[mine])
        throw new AppError('ROLE_FORBIDDEN', `A ${mine} may not change an ${before.role}`);
      if (ROLE_RANK[role] > ROLE_RANK[mine])
        throw new AppError('ROLE_FORBIDDEN', `A ${mine} may not make anyone ${role}`);
      if (self && ROLE_RANK[role] > ROLE_RANK[before.role])
        throw new AppError('ROLE_FORBIDDEN', 'Nobody may raise their own role');
      if (self && permissions.some((p) => !before.permissions.includes(p)))
        throw new AppError('ROLE_FORBIDDEN', 'Nobody may raise their own permissions');
      const after = await repo.updateMember(tx, { storeId, staffId, role, permissions, unitId, disabled, at });
      if (before.role === 'owner' && (await repo.enabledOwners(tx, storeId)) === 0) {
        throw new AppError('LAST_OWNER', 'The store must keep at least one enabled owner');
      }
      if (disabled && !before.disabled) await endAllSessions(tx, { staffId, storeId, at });
      const changed = Object.fromEntries(Object.keys(patch).map((k) => [k, (after as Record<string, unknown>)[k]]));
      await audit(tx, ctx, { action: 'staff.updated', entity: 'staff', entityId: staffId, details: changed });
      return { staff: after };
    });
  } catch (err) {
    // The unit must be one of the store's (a composite foreign key decides).
    if (pgCode(err) === '23503') throw new AppError('VALIDATION_FAILED', 'unit_id is not a unit of this store');
    throw err;
  }
}
