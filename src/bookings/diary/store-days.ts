// A store's zone and currency. Store-local days are turned into instants by PostgreSQL's time-zone
// database (timestamp AT TIME ZONE zone), in the statements that need them (the diary's, for one),
// so a 23-hour spring-forward day and a 25-hour fall-back day come out right without offset maths.
import type { Queryable } from '../../platform/db/port.ts';
import { notFound } from '../../platform/errors/app-error.ts';

export interface StoreZone {
  id: string;
  timezone: string;
  currency: string;
}

export async function findStoreZone(q: Queryable, storeId: string): Promise<StoreZone> {
  const res = await q.query<StoreZone>('SELECT id, timezone, currency FROM stores WHERE id = $1', [storeId]);
  if (!res.rows[0]) throw notFound('Store');
  return res.rows[0];
}
