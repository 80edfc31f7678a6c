// Staff rows and a signed-in session for the passkey and OIDC tests, written straight to the tables
// of migration 220 (the session the way startSession stores it: only the token's SHA-256).
import type { Database } from '../../../src/platform/db/port.ts';
import { newSecret, secretHash } from '../../../src/staff/secrets.ts';

export interface StaffMember {
  staffId: string;
  email: string;
  /** `bbo_session=<token>`, ready for a Cookie header. */
  cookie: string;
}

export async function staffMember(
  db: Database,
  input: { storeId: string; email: string; name?: string; role?: string; at: Date },
): Promise<StaffMember> {
  const person = await db.query<{ id: string }>(
    `INSERT INTO staff_people (email, name, created_at, updated_at) VALUES ($1, $2, $3, $3) RETURNING id`,
    [input.email, input.name ?? 'Sam Taylor', input.at],
  );
  const staffId = person.rows[0].id;
  await db.query(
    `INSERT INTO staff_memberships (store_id, staff_id, role, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)`,
    [input.storeId, staffId, input.role ?? 'front_desk', input.at],
  );
  return {
    staffId,
    email: input.email,
    cookie: await sessionCookie(db, { staffId, storeId: input.storeId, at: input.at }),
  };
}

export async function sessionCookie(
  db: Database,
  input: { staffId: string; storeId: string; at: Date },
): Promise<string> {
  const token = newSecret();
  await db.query(
    `INSERT INTO staff_sessions (token_hash, staff_id, store_id, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $4, $4, $4::timestamptz + interval '30 days')`,
    [secretHash(token), input.staffId, input.storeId, input.at],
  );
  return `bbo_session=${token}`;
}

/** The bbo_session value a Set-Cookie header carries, as a Cookie header; null when none. */
export function cookieFrom(setCookie: unknown): string | null {
  const all = Array.isArray(setCookie) ? setCookie : typeof setCookie === 'string' ? [setCookie] : [];
  for (const c of all) {
    const match = /^bbo_session=([A-Za-z0-9_-]+)/.exec(String(c));
    if (match) return `bbo_session=${match[1]}`;
  }
  return null;
}
