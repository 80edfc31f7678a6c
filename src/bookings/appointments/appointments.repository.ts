// SQL of the appointment operations. Every function takes the transaction handle and filters on
// the store, so another store's record reads exactly like a missing one. Inserting appointments and
// changing their block belongs to the booking authority, not here.
import type { Tx } from '../../platform/db/port.ts';
import { APPOINTMENT_COLUMNS, type AppointmentRow } from '../booking-authority.ts';

export interface StoreSettings {
  currency: string;
  cancellation_window_min: number;
}

export async function storeSettings(tx: Tx, storeId: string): Promise<StoreSettings | null> {
  const res = await tx.query<StoreSettings>('SELECT currency, cancellation_window_min FROM stores WHERE id = $1', [storeId]);
  return res.rows[0] ?? null;
}

export interface ServiceTerms {
  price_pence: number;
  buffer_before_min: number;
  buffer_after_min: number;
  is_active: boolean;
}

export async function serviceTerms(tx: Tx, storeId: string, serviceId: string): Promise<ServiceTerms | null> {
  const res = await tx.query<ServiceTerms>(
    'SELECT price_pence, buffer_before_min, buffer_after_min, is_active FROM services WHERE store_id = $1 AND id = $2',
    [storeId, serviceId],
  );
  return res.rows[0] ?? null;
}

/** A booking is activity with the store: it makes (or refreshes) the store's relationship with the customer. */
export async function touchStoreRelationship(tx: Tx, storeId: string, customerId: string, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO store_customers (store_id, customer_id, first_seen_at, last_seen_at, updated_at)
     VALUES ($1, $2, $3, $3, $3)
     ON CONFLICT (store_id, customer_id)
     DO UPDATE SET last_seen_at = GREATEST(store_customers.last_seen_at, EXCLUDED.last_seen_at)`,
    [storeId, customerId, now.toISOString()],
  );
}

/**
 * Reads the appointment and locks its row until the transaction ends: every state change on an
 * appointment starts here, so two colleagues acting at once are served one after the other and
 * the second sees what the first did.
 */
export async function lockAppointment(tx: Tx, storeId: string, id: string): Promise<AppointmentRow | null> {
  const res = await tx.query<AppointmentRow>(
    `SELECT ${APPOINTMENT_COLUMNS} FROM appointments WHERE store_id = $1 AND id = $2 FOR UPDATE`,
    [storeId, id],
  );
  return res.rows[0] ?? null;
}

export async function markCheckedIn(tx: Tx, storeId: string, id: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE appointments SET status = 'checked_in', checked_in_at = $3, updated_at = $3 WHERE store_id = $1 AND id = $2`,
    [storeId, id, now.toISOString()],
  );
}

export async function markCompleted(tx: Tx, storeId: string, id: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE appointments SET status = 'completed', completed_at = $3, updated_at = $3 WHERE store_id = $1 AND id = $2`,
    [storeId, id, now.toISOString()],
  );
}

export async function markNoShow(tx: Tx, storeId: string, id: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE appointments SET status = 'no_show', no_show_at = $3, updated_at = $3 WHERE store_id = $1 AND id = $2`,
    [storeId, id, now.toISOString()],
  );
}

/** Releases the block by status (the exclusion constraint ignores cancelled rows); the row is kept. */
export async function markCancelled(tx: Tx, storeId: string, id: string, reason: string | null, now: Date): Promise<void> {
  await tx.query(
    `UPDATE appointments SET status = 'cancelled', cancelled_at = $3, cancel_reason = $4, updated_at = $3
      WHERE store_id = $1 AND id = $2`,
    [storeId, id, now.toISOString(), reason],
  );
}

export interface SettlementRow {
  amount_pence: number;
  method: 'cash' | 'card_machine';
  settled_by_user_id: string | null;
  settled_by_name: string | null;
  settled_at: string;
}

export async function latestSettlement(tx: Tx, storeId: string, appointmentId: string): Promise<SettlementRow | null> {
  const res = await tx.query<SettlementRow>(
    `SELECT amount_pence, method, settled_by_user_id, settled_by_name, settled_at FROM settlements
      WHERE store_id = $1 AND appointment_id = $2 ORDER BY settled_at DESC, id DESC LIMIT 1`,
    [storeId, appointmentId],
  );
  return res.rows[0] ?? null;
}

export interface NewSettlement {
  storeId: string;
  appointmentId: string;
  amountPence: number;
  currency: string;
  method: 'cash' | 'card_machine';
  userId: string | null;
  staffName: string | null;
  at: Date;
}

/**
 * Records money taken and moves the running total on the appointment in the same transaction,
 * so settled_pence always equals the sum of the appointment's settlements rows.
 */
export async function recordSettlement(tx: Tx, s: NewSettlement, after: { status: string; paymentStatus: string }): Promise<void> {
  const at = s.at.toISOString();
  await tx.query(
    `INSERT INTO settlements (store_id, appointment_id, amount_pence, currency, method, settled_by_user_id, settled_by_name, settled_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [s.storeId, s.appointmentId, s.amountPence, s.currency, s.method, s.userId, s.staffName, at],
  );
  await tx.query(
    `UPDATE appointments
        SET settled_pence = settled_pence + $3, payment_status = $4, status = $5,
            completed_at = CASE WHEN $5 = 'completed' THEN COALESCE(completed_at, $6::timestamptz) ELSE completed_at END,
            updated_at = $6
      WHERE store_id = $1 AND id = $2`,
    [s.storeId, s.appointmentId, s.amountPence, after.paymentStatus, after.status, at],
  );
}

/** A plain existence check (no lock): the booking authority locks units itself, in a fixed order. */
export async function unitInStore(tx: Tx, storeId: string, unitId: string): Promise<boolean> {
  const res = await tx.query('SELECT 1 FROM units WHERE store_id = $1 AND id = $2', [storeId, unitId]);
  return res.rows.length > 0;
}
