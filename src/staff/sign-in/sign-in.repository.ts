// The reads and writes of signing in: the person by email with their enabled places, and the
// failure counts the throttle decides on.
import type { Queryable } from '../../platform/db/port.ts';

export interface PersonWithStores {
  id: string;
  name: string;
  email: string;
  password_hash: string | null;
  /** Enabled places, most recently signed in first. */
  stores: Array<{ store_id: string; name: string; role: 'owner' | 'manager' | 'front_desk' | 'staff' }>;
}

export async function findPersonByEmail(db: Queryable, email: string): Promise<PersonWithStores | null> {
  const res = await db.query<PersonWithStores>(
    `SELECT p.id, p.name, p.email, p.password_hash,
            coalesce(jsonb_agg(jsonb_build_object('store_id', m.store_id, 'name', s.name, 'role', m.role)
                       ORDER BY m.last_sign_in_at DESC NULLS LAST, m.created_at, m.store_id)
                     FILTER (WHERE m.id IS NOT NULL), '[]') AS stores
       FROM staff_people p
       LEFT JOIN staff_memberships m ON m.staff_id = p.id AND NOT m.disabled
       LEFT JOIN stores s ON s.id = m.store_id
      WHERE lower(p.email) = lower($1)
      GROUP BY p.id`,
    [email],
  );
  return res.rows[0] ?? null;
}

export interface FailureCounts {
  account: number;
  account_oldest: string | null;
  address: number;
  address_oldest: string | null;
}

/** Failures of the account in the last accountWindow and of the address in the last addressWindow (seconds). */
export async function countFailures(
  db: Queryable,
  input: { account: string; address: string; at: Date; accountWindowS: number; addressWindowS: number },
): Promise<FailureCounts> {
  const res = await db.query<FailureCounts>(
    `SELECT count(*) FILTER (WHERE subject = $1 AND failed_at > $3::timestamptz - make_interval(secs => $4::int))::int AS account,
            min(failed_at) FILTER (WHERE subject = $1 AND failed_at > $3::timestamptz - make_interval(secs => $4::int)) AS account_oldest,
            count(*) FILTER (WHERE subject = $2 AND failed_at > $3::timestamptz - make_interval(secs => $5::int))::int AS address,
            min(failed_at) FILTER (WHERE subject = $2 AND failed_at > $3::timestamptz - make_interval(secs => $5::int)) AS address_oldest
       FROM staff_sign_in_failures
      WHERE subject IN ($1, $2) AND failed_at > $3::timestamptz - make_interval(secs => greatest($4::int, $5::int))`,
    [input.account, input.address, input.at, input.accountWindowS, input.addressWindowS],
  );
  return res.rows[0];
}

/** Records one failure for both subjects and forgets their failures older than keepS seconds. */
export async function recordFailure(
  db: Queryable,
  input: { account: string; address: string; at: Date; keepS: number },
): Promise<void> {
  await db.query(
    `WITH gone AS (DELETE FROM staff_sign_in_failures WHERE subject IN ($1, $2) AND failed_at <= $3::timestamptz - make_interval(secs => $4::int))
     INSERT INTO staff_sign_in_failures (subject, failed_at) VALUES ($1, $3), ($2, $3)`,
    [input.account, input.address, input.at, input.keepS],
  );
}

/** A successful sign-in forgets the account's failures (the address's stay). */
export async function clearAccountFailures(db: Queryable, account: string): Promise<void> {
  await db.query(`DELETE FROM staff_sign_in_failures WHERE subject = $1`, [account]);
}
