// The store's units and services, read once per appointment import to find rows' names and ids.
import type { Queryable } from '../platform/db/port.ts';

export interface Catalogue {
  units: Array<{ id: string; name: string; bookable: boolean }>;
  services: Array<{ id: string; name: string; duration_min: number; price_pence: number; buffer_before_min: number; buffer_after_min: number }>;
}

export async function storeCatalogue(db: Queryable, storeId: string): Promise<Catalogue> {
  const [units, services] = await Promise.all([
    db.query<Catalogue['units'][number]>(
      'SELECT id, display_name AS name, is_active AND bookable AS bookable FROM units WHERE store_id = $1',
      [storeId],
    ),
    db.query<Catalogue['services'][number]>(
      `SELECT id, name, duration_min, price_pence, coalesce(buffer_before_min, 0) AS buffer_before_min, coalesce(buffer_after_min, 0) AS buffer_after_min
         FROM services WHERE store_id = $1`,
      [storeId],
    ),
  ]);
  return { units: units.rows, services: services.rows };
}
