// Whether a store may see a customer's history: a relationship row, and a customer not erased.
// Both failures read as 404, so an erased person or another store's customer look like no one.
import type { Queryable } from '../../platform/db/port.ts';

export async function hasLiveRelationship(db: Queryable, storeId: string, customerId: string): Promise<boolean> {
  const res = await db.query(
    `SELECT 1 FROM store_customers sc JOIN customers c ON c.id = sc.customer_id
      WHERE sc.store_id = $1 AND sc.customer_id = $2 AND c.erased_at IS NULL`,
    [storeId, customerId],
  );
  return res.rowCount > 0;
}
