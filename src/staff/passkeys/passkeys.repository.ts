// Passkeys and their ceremony challenges (migration 228). A challenge is consumed by one DELETE ...
// RETURNING: the statement, not a read before it, decides that it is used once.
import type { Queryable } from '../../platform/db/port.ts';

export interface PasskeyRow {
  credential_id: string;
  staff_id: string;
  public_key_hex: string;
  counter: number;
  transports: string[];
}

export interface PasskeySummary {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** Stores a challenge; expired ones are swept by the same statement so the table stays small. */
export async function insertChallenge(
  db: Queryable,
  input: {
    challenge: string;
    purpose: 'register' | 'authenticate';
    staffId: string | null;
    storeId: string | null;
    at: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db.query(
    `WITH sweep AS (DELETE FROM staff_webauthn_challenges WHERE expires_at < $5)
     INSERT INTO staff_webauthn_challenges (challenge, purpose, staff_id, store_id, expires_at) VALUES ($1, $2, $3, $4, $6)`,
    [input.challenge, input.purpose, input.staffId, input.storeId, input.at, input.expiresAt],
  );
}

/** Takes a live challenge of this purpose (and person, for registration); null when unknown, used or expired. */
export async function consumeChallenge(
  db: Queryable,
  input: { challenge: string; purpose: 'register' | 'authenticate'; staffId: string | null; at: Date },
): Promise<{ store_id: string | null } | null> {
  const res = await db.query<{ store_id: string | null; expires_at: string }>(
    `DELETE FROM staff_webauthn_challenges
      WHERE challenge = $1 AND purpose = $2 AND staff_id IS NOT DISTINCT FROM $3
      RETURNING store_id, expires_at`,
    [input.challenge, input.purpose, input.staffId],
  );
  const row = res.rows[0];
  if (!row || new Date(row.expires_at).getTime() <= input.at.getTime()) return null;
  return { store_id: row.store_id };
}

export async function insertPasskey(
  db: Queryable,
  input: {
    credentialId: string;
    staffId: string;
    publicKey: Uint8Array;
    counter: number;
    transports: string[];
    name: string;
    at: Date;
  },
): Promise<boolean> {
  const res = await db.query(
    `INSERT INTO staff_passkeys (credential_id, staff_id, public_key, counter, transports, name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (credential_id) DO NOTHING`,
    [
      input.credentialId,
      input.staffId,
      Buffer.from(input.publicKey),
      input.counter,
      input.transports,
      input.name,
      input.at,
    ],
  );
  return res.rowCount > 0;
}

export async function findPasskey(db: Queryable, credentialId: string): Promise<PasskeyRow | null> {
  const res = await db.query<PasskeyRow>(
    `SELECT credential_id, staff_id, encode(public_key, 'hex') AS public_key_hex, counter, transports
       FROM staff_passkeys WHERE credential_id = $1`,
    [credentialId],
  );
  return res.rows[0] ?? null;
}

/**
 * Records a use: the counter moves forward only (an authenticator that keeps no counter reports 0
 * every time). False when the stored counter is already at or past a non-zero new one: a cloned key.
 */
export async function recordUse(
  db: Queryable,
  input: { credentialId: string; counter: number; at: Date },
): Promise<boolean> {
  const res = await db.query(
    `UPDATE staff_passkeys SET counter = $2, last_used_at = $3
      WHERE credential_id = $1 AND ($2 = 0 AND counter = 0 OR $2 > counter)`,
    [input.credentialId, input.counter, input.at],
  );
  return res.rowCount > 0;
}

export async function listPasskeys(db: Queryable, staffId: string): Promise<PasskeySummary[]> {
  const res = await db.query<PasskeySummary>(
    `SELECT credential_id AS id, name, created_at, last_used_at FROM staff_passkeys WHERE staff_id = $1 ORDER BY created_at, credential_id`,
    [staffId],
  );
  return res.rows;
}

export async function credentialIdsOf(
  db: Queryable,
  staffId: string,
): Promise<Array<{ id: string; transports: string[] }>> {
  const res = await db.query<{ id: string; transports: string[] }>(
    `SELECT credential_id AS id, transports FROM staff_passkeys WHERE staff_id = $1`,
    [staffId],
  );
  return res.rows;
}

export async function deletePasskey(db: Queryable, input: { staffId: string; credentialId: string }): Promise<boolean> {
  const res = await db.query(`DELETE FROM staff_passkeys WHERE staff_id = $1 AND credential_id = $2`, [
    input.staffId,
    input.credentialId,
  ]);
  return res.rowCount > 0;
}

export async function hasPasskey(db: Queryable, staffId: string): Promise<boolean> {
  const res = await db.query<{ has: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM staff_passkeys WHERE staff_id = $1) AS has`,
    [staffId],
  );
  return res.rows[0]?.has === true;
}

/** The person's enabled places, most recently signed in first: a sign-in without store_id picks the first. */
export async function enabledStores(db: Queryable, staffId: string): Promise<string[]> {
  const res = await db.query<{ store_id: string }>(
    `SELECT store_id FROM staff_memberships WHERE staff_id = $1 AND NOT disabled
      ORDER BY last_sign_in_at DESC NULLS LAST, created_at, store_id`,
    [staffId],
  );
  return res.rows.map((r) => r.store_id);
}
