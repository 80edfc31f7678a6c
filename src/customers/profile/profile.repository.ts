// SQL for the customer edit. Identity (name, phone, email) lives on the global customers row;
// the private note lives on this store's store_customers row.
import type { Queryable } from '../../platform/db/port.ts';
import { pgCode, pgConstraint, PG } from '../../platform/db/pg-errors.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { EditRecord } from './profile.schemas.ts';

export interface LockedCustomer extends EditRecord {
  erased_at: string | null;
}

/**
 * The customer as this store sees it, with both rows locked: concurrent edits of the same
 * customer queue here instead of computing changed_fields from a stale read.
 */
export async function lockStoreCustomer(
  tx: Queryable,
  storeId: string,
  customerId: string,
): Promise<LockedCustomer | null> {
  const res = await tx.query<LockedCustomer>(
    `SELECT c.id, c.name, c.phone, c.email, sc.merchant_note, sc.merchant_note_updated_at, c.erased_at
       FROM store_customers sc
       JOIN customers c ON c.id = sc.customer_id
      WHERE sc.store_id = $1 AND sc.customer_id = $2
        FOR UPDATE`,
    [storeId, customerId],
  );
  return res.rows[0] ?? null;
}

export interface IdentityChange {
  name: string | null;
  phone: string | null;
  email: string | null;
}

// The unique indexes decide who owns a phone or email; losing that race is a refusal, not a move.
const IN_USE: Record<string, () => AppError> = {
  customers_phone_key: () => new AppError('PHONE_IN_USE', 'That phone number belongs to another customer'),
  customers_email_key: () => new AppError('EMAIL_IN_USE', 'That email belongs to another customer'),
};

export async function updateIdentity(
  tx: Queryable,
  customerId: string,
  next: IdentityChange,
  now: string,
): Promise<void> {
  try {
    await tx.query('UPDATE customers SET name = $2, phone = $3, email = $4, updated_at = $5 WHERE id = $1', [
      customerId,
      next.name,
      next.phone,
      next.email,
      now,
    ]);
  } catch (err) {
    const inUse = pgCode(err) === PG.uniqueViolation ? IN_USE[pgConstraint(err) ?? ''] : undefined;
    throw inUse ? inUse() : err;
  }
}

export async function updateMerchantNote(
  tx: Queryable,
  storeId: string,
  customerId: string,
  note: string | null,
  now: string,
): Promise<void> {
  await tx.query(
    `UPDATE store_customers SET merchant_note = $3, merchant_note_updated_at = $4, updated_at = $4
      WHERE store_id = $1 AND customer_id = $2`,
    [storeId, customerId, note, now],
  );
}
