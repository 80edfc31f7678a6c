// "One of this store's customers": a relationship row (membership or earlier activity) is required.
// A person the store has never dealt with reads exactly like an unknown id, so one store can never
// reach another store's customer by id. Used by bookings, the queue, attendance and the journey.
import type { Queryable } from '../platform/db/port.ts';

export interface StoreCustomer {
  id: string;
  erased: boolean;
  blocked: boolean;
}

/**
 * The query behind findStoreCustomer, with the store and the customer given as SQL expressions, for
 * a statement that reads one of the store's customers alongside other things.
 */
export function storeCustomerSql(storeId: string, customerId: string): string {
  return `SELECT c.id, c.erased_at IS NOT NULL AS erased, sc.blocked
       FROM store_customers sc JOIN customers c ON c.id = sc.customer_id
      WHERE sc.store_id = ${storeId} AND sc.customer_id = ${customerId}`;
}

export async function findStoreCustomer(
  q: Queryable,
  storeId: string,
  customerId: string,
): Promise<StoreCustomer | null> {
  const res = await q.query<StoreCustomer>(storeCustomerSql('$1', '$2'), [storeId, customerId]);
  return res.rows[0] ?? null;
}

/** Whether the store may see the customer's history: their customer, and not erased. */
export async function hasLiveRelationship(q: Queryable, storeId: string, customerId: string): Promise<boolean> {
  const customer = await findStoreCustomer(q, storeId, customerId);
  return customer !== null && !customer.erased;
}
