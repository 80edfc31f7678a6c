// Started OIDC sign-ins (migration 229) and how a verified email finds its person: an existing
// staff member, or a pending invitation accepted here. Nothing here creates a person otherwise.
import type { Queryable, Tx } from '../../platform/db/port.ts';

export interface StartedLogin {
  code_verifier: string;
  nonce: string;
  store_id: string | null;
  expires_at: string;
}

/** Stores a started sign-in; expired ones are swept by the same statement. */
export async function insertLogin(
  db: Queryable,
  input: {
    state: string;
    browserHash: Buffer;
    codeVerifier: string;
    nonce: string;
    storeId: string | null;
    at: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db.query(
    `WITH sweep AS (DELETE FROM staff_oidc_logins WHERE expires_at < $6)
     INSERT INTO staff_oidc_logins (state, browser_hash, code_verifier, nonce, store_id, expires_at) VALUES ($1, $2, $3, $4, $5, $7)`,
    [input.state, input.browserHash, input.codeVerifier, input.nonce, input.storeId, input.at, input.expiresAt],
  );
}

/** Takes the sign-in this state and browser started, once; null when unknown, used, another browser's or expired. */
export async function consumeLogin(
  db: Queryable,
  input: { state: string; browserHash: Buffer; at: Date },
): Promise<StartedLogin | null> {
  const res = await db.query<StartedLogin>(
    `DELETE FROM staff_oidc_logins WHERE state = $1 AND browser_hash = $2 RETURNING code_verifier, nonce, store_id, expires_at`,
    [input.state, input.browserHash],
  );
  const row = res.rows[0];
  return row && new Date(row.expires_at).getTime() > input.at.getTime() ? row : null;
}

export async function personByEmail(db: Queryable, email: string): Promise<string | null> {
  const res = await db.query<{ id: string }>(`SELECT id FROM staff_people WHERE lower(email) = lower($1)`, [email]);
  return res.rows[0]?.id ?? null;
}

/**
 * Accepts the newest live invitation for this email (at the named store, when one is named), inside
 * the caller's transaction: the invitation row is locked and marked accepted by a conditional update,
 * the person is found or created by their email, and the membership is added with the invitation's
 * role, permissions and unit (a place the person already has stays as it is, disabled or not).
 * Null when there is no such invitation.
 */
export async function acceptInvitationByEmail(
  tx: Tx,
  input: { email: string; name: string; storeId: string | null; at: Date },
): Promise<{ staff_id: string; store_id: string; name: string; role: string; invitation_id: string } | null> {
  const invitation = await tx.query<{
    id: string;
    store_id: string;
    role: string;
    permissions: string[];
    unit_id: string | null;
    name: string | null;
  }>(
    `UPDATE staff_invitations SET accepted_at = $3
      WHERE id = (SELECT id FROM staff_invitations
                   WHERE store_id IS NOT NULL AND lower(email) = lower($1) AND accepted_at IS NULL AND expires_at > $3
                     AND ($2::uuid IS NULL OR store_id = $2)
                   ORDER BY created_at DESC LIMIT 1 FOR UPDATE)
        AND accepted_at IS NULL
      RETURNING id, store_id, role, permissions, unit_id, name`,
    [input.email, input.storeId, input.at],
  );
  const inv = invitation.rows[0];
  if (!inv) return null;
  const name = (inv.name ?? input.name).slice(0, 120) || input.email;
  const person = await tx.query<{ id: string }>(
    `INSERT INTO staff_people (email, name, created_at, updated_at) VALUES (lower($1), $2, $3, $3)
     ON CONFLICT (lower(email)) DO UPDATE SET updated_at = EXCLUDED.updated_at
     RETURNING id`,
    [input.email, name, input.at],
  );
  const staffId = person.rows[0].id;
  await tx.query(
    `INSERT INTO staff_memberships (store_id, staff_id, role, permissions, unit_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)
     ON CONFLICT (store_id, staff_id) DO NOTHING`,
    [inv.store_id, staffId, inv.role, inv.permissions, inv.unit_id, input.at],
  );
  return { staff_id: staffId, store_id: inv.store_id, name, role: inv.role, invitation_id: inv.id };
}
