// Staff sessions: rows keyed by the token's hash. Expiry is decided in SQL against the instant the
// service passes (ctx.clock), never the database's now().
import type { Queryable } from '../../platform/db/port.ts';

export interface SessionPrincipal {
  session_id: string;
  staff_id: string;
  store_id: string;
  membership_id: string;
  name: string;
  email: string;
  role: 'owner' | 'manager' | 'front_desk' | 'staff';
  permissions: string[];
  unit_id: string | null;
}

/**
 * Creates a session for an enabled membership and stamps its last sign-in, in one statement;
 * null when the person has no enabled place at the store.
 */
export async function insertSession(
  db: Queryable,
  input: { tokenHash: Buffer; staffId: string; storeId: string; at: Date; expiresAt: Date; userAgent: string | null },
): Promise<{ id: string } | null> {
  const res = await db.query<{ id: string }>(
    `WITH m AS (
       UPDATE staff_memberships SET last_sign_in_at = $4
        WHERE store_id = $3 AND staff_id = $2 AND NOT disabled
        RETURNING store_id, staff_id)
     INSERT INTO staff_sessions (token_hash, staff_id, store_id, created_at, last_seen_at, expires_at, user_agent)
     SELECT $1, m.staff_id, m.store_id, $4, $4, $5, $6 FROM m
     RETURNING id`,
    [input.tokenHash, input.staffId, input.storeId, input.at, input.expiresAt, input.userAgent],
  );
  return res.rows[0] ?? null;
}

/**
 * The live session of a token with its member as they are now (a role change applies at once), in
 * one statement; last_seen_at moves on at most once a minute so a busy console writes little.
 */
export async function findLiveSession(
  db: Queryable,
  tokenHash: Buffer,
  at: Date,
  idleMs: number,
): Promise<SessionPrincipal | null> {
  const res = await db.query<SessionPrincipal>(
    `WITH s AS (
       SELECT s.id AS session_id, s.staff_id, s.store_id, m.id AS membership_id, p.name, p.email, m.role,
              m.permissions, m.unit_id
         FROM staff_sessions s
         JOIN staff_memberships m ON m.store_id = s.store_id AND m.staff_id = s.staff_id
         JOIN staff_people p ON p.id = s.staff_id
        WHERE s.token_hash = $1 AND s.ended_at IS NULL AND s.expires_at > $2
          AND s.last_seen_at > $2::timestamptz - make_interval(secs => $3::double precision / 1000) AND NOT m.disabled),
     touch AS (
       UPDATE staff_sessions SET last_seen_at = $2
        WHERE id = (SELECT session_id FROM s) AND last_seen_at < $2::timestamptz - interval '1 minute')
     SELECT * FROM s`,
    [tokenHash, at, idleMs],
  );
  return res.rows[0] ?? null;
}

export async function endSessionByHash(db: Queryable, tokenHash: Buffer, at: Date): Promise<void> {
  await db.query(`UPDATE staff_sessions SET ended_at = $2 WHERE token_hash = $1 AND ended_at IS NULL`, [tokenHash, at]);
}

/** Ends one of the person's own sessions at the store; false when there is no such live session. */
export async function endOwnSession(
  db: Queryable,
  input: { sessionId: string; staffId: string; storeId: string; at: Date },
): Promise<boolean> {
  const res = await db.query(
    `UPDATE staff_sessions SET ended_at = $4 WHERE id = $1 AND staff_id = $2 AND store_id = $3 AND ended_at IS NULL`,
    [input.sessionId, input.staffId, input.storeId, input.at],
  );
  return res.rowCount > 0;
}

/** Ends every session of the person at the store (disabled or removed). */
export async function endAllSessions(
  db: Queryable,
  input: { staffId: string; storeId: string; at: Date },
): Promise<void> {
  await db.query(`UPDATE staff_sessions SET ended_at = $3 WHERE staff_id = $1 AND store_id = $2 AND ended_at IS NULL`, [
    input.staffId,
    input.storeId,
    input.at,
  ]);
}

export interface SessionRow {
  id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  user_agent: string | null;
}

export async function listLiveSessions(
  db: Queryable,
  input: { staffId: string; storeId: string; at: Date; idleMs: number },
): Promise<SessionRow[]> {
  const res = await db.query<SessionRow>(
    `SELECT id, created_at, last_seen_at, expires_at, user_agent
       FROM staff_sessions
      WHERE staff_id = $1 AND store_id = $2 AND ended_at IS NULL AND expires_at > $3
        AND last_seen_at > $3::timestamptz - make_interval(secs => $4::double precision / 1000)
      ORDER BY created_at DESC, id`,
    [input.staffId, input.storeId, input.at, input.idleMs],
  );
  return res.rows;
}
