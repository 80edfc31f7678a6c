// A store's staff: their memberships with the person's name and email.
import type { Queryable } from '../../platform/db/port.ts';
import type { StaffMember } from '../staff.schemas.ts';

const COLUMNS = `p.id, p.email, p.name, m.role, m.permissions, m.unit_id, m.last_sign_in_at, m.disabled`;

export async function listMembers(db: Queryable, storeId: string): Promise<StaffMember[]> {
  const res = await db.query<StaffMember>(
    `SELECT ${COLUMNS} FROM staff_memberships m JOIN staff_people p ON p.id = m.staff_id
      WHERE m.store_id = $1 ORDER BY p.name, p.id`,
    [storeId],
  );
  return res.rows;
}

/**
 * Locks the store's owner rows and the target's, in one statement and a fixed order (by staff id),
 * so two changes that could each leave the store ownerless run one after the other.
 */
export async function lockForChange(tx: Queryable, storeId: string, staffId: string): Promise<StaffMember | null> {
  const res = await tx.query<StaffMember & { locked_for: string }>(
    `SELECT ${COLUMNS} FROM staff_memberships m JOIN staff_people p ON p.id = m.staff_id
      WHERE m.store_id = $1 AND (m.role = 'owner' OR m.staff_id = $2)
      ORDER BY m.staff_id FOR UPDATE OF m`,
    [storeId, staffId],
  );
  return res.rows.find((r) => r.id === staffId) ?? null;
}

export async function updateMember(
  tx: Queryable,
  input: {
    storeId: string;
    staffId: string;
    role: string;
    permissions: string[];
    unitId: string | null;
    disabled: boolean;
    at: Date;
  },
): Promise<StaffMember> {
  const res = await tx.query<StaffMember>(
    `WITH m AS (
       UPDATE staff_memberships SET role = $3, permissions = $4, unit_id = $5, disabled = $6, updated_at = $7
        WHERE store_id = $1 AND staff_id = $2 RETURNING *)
     SELECT ${COLUMNS} FROM m JOIN staff_people p ON p.id = m.staff_id`,
    [input.storeId, input.staffId, input.role, input.permissions, input.unitId, input.disabled, input.at],
  );
  return res.rows[0];
}

export async function enabledOwners(tx: Queryable, storeId: string): Promise<number> {
  const res = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM staff_memberships WHERE store_id = $1 AND role = 'owner' AND NOT disabled`,
    [storeId],
  );
  return res.rows[0].n;
}
