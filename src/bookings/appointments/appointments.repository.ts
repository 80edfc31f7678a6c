// SQL of the appointment operations. Every function takes the transaction handle and filters on
// the store, so another store's record reads exactly like a missing one. Inserting appointments and
// changing their block belongs to the booking authority, not here.
import type { Tx } from '../../platform/db/port.ts';
import { APPOINTMENT_COLUMNS, type AppointmentRow } from '../booking-authority.ts';
import { storeCustomerSql, type StoreCustomer } from '../../customers/store-customer.repository.ts';

export interface StoreSettings {
  currency: string;
  cancellation_window_min: number;
}

export interface ServiceTerms {
  price_pence: number;
  party_min: number;
  party_max: number;
  buffer_before_min: number;
  buffer_after_min: number;
  is_active: boolean;
}

export interface BookingLookup {
  serviceId?: string | null;
  customerId?: string | null;
  unitId?: string | null;
}

export interface BookingFacts {
  /** null: no such store. */
  store: StoreSettings | null;
  /** null: no service asked for, or none of that id in the store. */
  service: ServiceTerms | null;
  /** null: no customer asked for, or not one of the store's customers (findStoreCustomer's rule). */
  customer: StoreCustomer | null;
  /** Whether the unit asked for is the store's (false when none was asked for). No lock is taken. */
  unitInStore: boolean;
}

/**
 * What booking or moving needs to know before the booking authority runs, read in one statement:
 * the store's settings, and the service, customer and unit when their ids are given. Each answer
 * is filtered on the store, so another store's record reads exactly like a missing one.
 */
export async function bookingFacts(tx: Tx, storeId: string, lookup: BookingLookup): Promise<BookingFacts> {
  const res = await tx.query<{
    store_found: boolean; currency: string | null; cancellation_window_min: number | null;
    service_found: boolean; price_pence: number | null; party_min: number | null; party_max: number | null; buffer_before_min: number | null; buffer_after_min: number | null; service_is_active: boolean | null;
    customer_id: string | null; customer_erased: boolean | null; customer_blocked: boolean | null;
    unit_in_store: boolean;
  }>(
    `SELECT st.id IS NOT NULL AS store_found, st.currency, st.cancellation_window_min,
            sv.id IS NOT NULL AS service_found, sv.price_pence, sv.party_min, sv.party_max, sv.buffer_before_min, sv.buffer_after_min, sv.is_active AS service_is_active,
            cu.id AS customer_id, cu.erased AS customer_erased, cu.blocked AS customer_blocked,
            EXISTS (SELECT 1 FROM units WHERE store_id = $1 AND id = $4) AS unit_in_store
       FROM (VALUES (1)) AS one (x)
       LEFT JOIN stores st ON st.id = $1
       LEFT JOIN services sv ON sv.store_id = $1 AND sv.id = $2
       LEFT JOIN LATERAL (${storeCustomerSql('$1', '$3')}) cu ON true`,
    [storeId, lookup.serviceId ?? null, lookup.customerId ?? null, lookup.unitId ?? null],
  );
  const r = res.rows[0];
  return {
    store: r.store_found ? { currency: r.currency!, cancellation_window_min: r.cancellation_window_min! } : null,
    service: r.service_found
      ? { price_pence: r.price_pence!, party_min: r.party_min!, party_max: r.party_max!, buffer_before_min: r.buffer_before_min!, buffer_after_min: r.buffer_after_min!, is_active: r.service_is_active! }
      : null,
    customer: r.customer_id !== null ? { id: r.customer_id, erased: r.customer_erased!, blocked: r.customer_blocked! } : null,
    unitInStore: r.unit_in_store,
  };
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
 * Records money taken and moves the running total on the appointment in one statement (a
 * data-modifying WITH runs with its main statement or not at all), so settled_pence always equals
 * the sum of the appointment's settlements rows.
 */
export async function recordSettlement(tx: Tx, s: NewSettlement, after: { status: string; paymentStatus: string }): Promise<void> {
  await tx.query(
    `WITH recorded AS (
       INSERT INTO settlements (store_id, appointment_id, amount_pence, currency, method, settled_by_user_id, settled_by_name, settled_at)
       VALUES ($1, $2, $3, $6, $7, $8, $9, $10)
     )
     UPDATE appointments
        SET settled_pence = settled_pence + $3, payment_status = $4, status = $5,
            completed_at = CASE WHEN $5 = 'completed' THEN COALESCE(completed_at, $10::timestamptz) ELSE completed_at END,
            updated_at = $10
      WHERE store_id = $1 AND id = $2`,
    [s.storeId, s.appointmentId, s.amountPence, after.paymentStatus, after.status, s.currency, s.method, s.userId, s.staffName, s.at.toISOString()],
  );
}
