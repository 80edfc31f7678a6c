// SQL of the appointment operations. Every function takes the transaction handle and filters on
// the store, so another store's record reads exactly like a missing one. Inserting appointments and
// changing their block belongs to the booking authority, not here.
import type { Tx } from '../../platform/db/port.ts';
import { APPOINTMENT_COLUMNS, type AppointmentRow } from '../booking-authority.ts';

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

