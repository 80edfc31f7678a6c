// SQL of the sign-in codes (table email_codes, migration 130): one live code per store and email (or
// phone: the email_hash column holds the keyed hash of either), kept only as keyed hashes; and the
// customer found by a verified email or phone, or created.
import type { Queryable } from '../../platform/db/port.ts';

export interface CodeRow {
  code_hash: string;
  expires_at: string;
  attempts: number;
  used_at: string | null;
}

/** A new code replaces the last one for this store and email (its attempts start again at 0). */
export async function replaceCode(
  q: Queryable,
  storeId: string,
  emailHash: string,
  codeHash: string,
  expiresAt: string,
  now: string,
): Promise<void> {
  await q.query(
    `INSERT INTO email_codes (store_id, email_hash, code_hash, expires_at, attempts, used_at, created_at)
     VALUES ($1, $2, $3, $4, 0, NULL, $5)
     ON CONFLICT (store_id, email_hash) DO UPDATE
       SET code_hash = EXCLUDED.code_hash, expires_at = EXCLUDED.expires_at, attempts = 0, used_at = NULL, created_at = EXCLUDED.created_at`,
    [storeId, emailHash, codeHash, expiresAt, now],
  );
}

/** The code row, locked: concurrent tries of one code are decided one after the other. */
export async function lockCode(q: Queryable, storeId: string, emailHash: string): Promise<CodeRow | null> {
  const res = await q.query<CodeRow>(
    'SELECT code_hash, expires_at, attempts, used_at FROM email_codes WHERE store_id = $1 AND email_hash = $2 FOR UPDATE',
    [storeId, emailHash],
  );
  return res.rows[0] ?? null;
}

export async function countWrongTry(q: Queryable, storeId: string, emailHash: string): Promise<number> {
  const res = await q.query<{ attempts: number }>(
    'UPDATE email_codes SET attempts = attempts + 1 WHERE store_id = $1 AND email_hash = $2 RETURNING attempts',
    [storeId, emailHash],
  );
  return res.rows[0].attempts;
}

export async function markUsed(q: Queryable, storeId: string, emailHash: string, now: string): Promise<void> {
  await q.query('UPDATE email_codes SET used_at = $3 WHERE store_id = $1 AND email_hash = $2', [
    storeId,
    emailHash,
    now,
  ]);
}

/** Rows past their lifetime are of no use to anyone: removed as new codes are asked for. */
export async function dropExpired(q: Queryable, now: string): Promise<void> {
  await q.query('DELETE FROM email_codes WHERE expires_at < $1', [now]);
}

export interface SignedInCustomer {
  id: string;
  name: string | null;
  email: string | null;
  erased_at: string | null;
  created: boolean;
}

/**
 * The customer with this (verified) email, or a new one with the name and phone typed on the page.
 * An existing customer is returned as it is: unverified input never changes their name, phone or
 * email (Easy!Appointments #621/#721). A phone already another customer's is not taken for the new one.
 */
export async function findOrCreateCustomer(
  q: Queryable,
  email: string,
  fresh: { name: string | null; phone: string | null },
  now: string,
): Promise<SignedInCustomer> {
  return findOrCreateBy(q, 'email', email, fresh.name, fresh.phone, now);
}

/**
 * Both ways in: the customer whose `by` (email or phone, a constant of the caller) is value, or a new
 * one with the name and the other contact, unless that contact is already another customer's.
 */
async function findOrCreateBy(
  q: Queryable,
  by: 'email' | 'phone',
  value: string,
  name: string | null,
  other: string | null,
  now: string,
): Promise<SignedInCustomer> {
  const otherColumn = by === 'email' ? 'phone' : 'email';
  const inserted = await q.query<SignedInCustomer>(
    `INSERT INTO customers (name, ${by}, ${otherColumn}, created_at, updated_at)
     SELECT $2, $1, CASE WHEN EXISTS (SELECT 1 FROM customers o WHERE o.${otherColumn} = $3) THEN NULL ELSE $3 END, $4, $4
     ON CONFLICT (${by}) WHERE ${by} IS NOT NULL DO NOTHING
     RETURNING id, name, email, erased_at, true AS created`,
    [value, name, other, now],
  );
  if (inserted.rows[0]) return inserted.rows[0];
  const found = await q.query<SignedInCustomer>(
    `SELECT id, name, email, erased_at, false AS created FROM customers WHERE ${by} = $1`,
    [value],
  );
  return found.rows[0];
}

/**
 * The customer with this (verified) UK mobile, or a new one with the name and email typed on the
 * page; as by email, unverified input never changes an existing customer, and an email already
 * another customer's is not taken for the new one.
 */
export async function findOrCreateCustomerByPhone(
  q: Queryable,
  phone: string,
  fresh: { name: string | null; email: string | null },
  now: string,
): Promise<SignedInCustomer> {
  return findOrCreateBy(q, 'phone', phone, fresh.name, fresh.email, now);
}
