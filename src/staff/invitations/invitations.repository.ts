// Invitations: only the token's hash is kept. A new invitation to the same email at the same store
// replaces the old (deleted in the same transaction; the partial unique index guarantees one live).
import type { Queryable } from '../../platform/db/port.ts';

export interface InvitationRow {
  id: string;
  store_id: string | null;
  email: string | null;
  name: string | null;
  role: 'owner' | 'manager' | 'front_desk' | 'staff';
  permissions: string[];
  unit_id: string | null;
  expires_at: string;
}

export async function replaceInvitation(
  tx: Queryable,
  input: {
    storeId: string | null;
    email: string | null;
    name: string | null;
    role: string;
    permissions: string[];
    unitId: string | null;
    tokenHash: Buffer;
    invitedBy: string | null;
    at: Date;
    expiresAt: Date;
  },
): Promise<InvitationRow> {
  await tx.query(
    `DELETE FROM staff_invitations
      WHERE store_id IS NOT DISTINCT FROM $1 AND accepted_at IS NULL
        AND (lower(email) = lower($2::text) OR ($2::text IS NULL AND email IS NULL))`,
    [input.storeId, input.email],
  );
  const res = await tx.query<InvitationRow>(
    `INSERT INTO staff_invitations (store_id, email, name, role, permissions, unit_id, token_hash, invited_by, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     RETURNING id, store_id, email, name, role, permissions, unit_id, expires_at`,
    [
      input.storeId,
      input.email,
      input.name,
      input.role,
      input.permissions,
      input.unitId,
      input.tokenHash,
      input.invitedBy,
      input.expiresAt,
      input.at,
    ],
  );
  return res.rows[0];
}

/** Takes a live invitation for use: it is marked accepted in the same statement, so it works once. */
export async function takeInvitation(tx: Queryable, tokenHash: Buffer, at: Date): Promise<InvitationRow | null> {
  const res = await tx.query<InvitationRow>(
    `UPDATE staff_invitations SET accepted_at = $2
      WHERE token_hash = $1 AND accepted_at IS NULL AND expires_at > $2
      RETURNING id, store_id, email, name, role, permissions, unit_id, expires_at`,
    [tokenHash, at],
  );
  return res.rows[0] ?? null;
}

export async function storeName(db: Queryable, storeId: string): Promise<string | null> {
  const res = await db.query<{ name: string }>(`SELECT name FROM stores WHERE id = $1`, [storeId]);
  return res.rows[0]?.name ?? null;
}

export async function isMember(db: Queryable, storeId: string, email: string): Promise<boolean> {
  const res = await db.query<{ yes: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM staff_memberships m JOIN staff_people p ON p.id = m.staff_id
                     WHERE m.store_id = $1 AND lower(p.email) = lower($2)) AS yes`,
    [storeId, email],
  );
  return res.rows[0].yes;
}

export async function unitOfStore(db: Queryable, storeId: string, unitId: string): Promise<boolean> {
  const res = await db.query(`SELECT 1 FROM units WHERE store_id = $1 AND id = $2`, [storeId, unitId]);
  return res.rowCount > 0;
}

export interface PersonRow {
  id: string;
  name: string;
  password_hash: string | null;
}

export async function personByEmail(tx: Queryable, email: string): Promise<PersonRow | null> {
  const res = await tx.query<PersonRow>(
    `SELECT id, name, password_hash FROM staff_people WHERE lower(email) = lower($1) FOR UPDATE`,
    [email],
  );
  return res.rows[0] ?? null;
}

export async function insertPerson(
  tx: Queryable,
  input: { email: string; name: string; passwordHash: string; at: Date },
): Promise<string> {
  const res = await tx.query<{ id: string }>(
    `INSERT INTO staff_people (email, name, password_hash, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING id`,
    [input.email, input.name, input.passwordHash, input.at],
  );
  return res.rows[0].id;
}

export async function setPassword(
  tx: Queryable,
  input: { staffId: string; name: string; passwordHash: string; at: Date },
): Promise<void> {
  await tx.query(`UPDATE staff_people SET name = $2, password_hash = $3, updated_at = $4 WHERE id = $1`, [
    input.staffId,
    input.name,
    input.passwordHash,
    input.at,
  ]);
}

/** The membership the invitation grants; an existing one at the store is left as it is. */
export async function insertMembership(
  tx: Queryable,
  input: { storeId: string; staffId: string; role: string; permissions: string[]; unitId: string | null; at: Date },
): Promise<void> {
  await tx.query(
    `INSERT INTO staff_memberships (store_id, staff_id, role, permissions, unit_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (store_id, staff_id) DO NOTHING`,
    [input.storeId, input.staffId, input.role, input.permissions, input.unitId, input.at],
  );
}

/** The store the first-run setup link makes its owner at: the oldest store, or a new one. */
export async function setupStore(tx: Queryable, at: Date): Promise<string> {
  const existing = await tx.query<{ id: string }>(`SELECT id FROM stores ORDER BY created_at, id LIMIT 1`);
  if (existing.rows[0]) return existing.rows[0].id;
  const res = await tx.query<{ id: string }>(
    `INSERT INTO stores (name, timezone, currency, created_at, updated_at) VALUES ('My shop', 'Europe/London', 'GBP', $1, $1) RETURNING id`,
    [at],
  );
  return res.rows[0].id;
}

/** Whether any staff account exists (first run is a database with none). */
export async function anyStaff(db: Queryable): Promise<boolean> {
  const res = await db.query<{ yes: boolean }>(`SELECT EXISTS (SELECT 1 FROM staff_people) AS yes`);
  return res.rows[0].yes;
}
