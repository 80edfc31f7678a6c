// SQL for a service's variants and add-ons. Rows are never deleted here: archiving is is_active false.
// Updates match on (store_id, service_id, id), so an id of another service or store changes nothing.
import type { Queryable } from '../../platform/db/port.ts';
import type { AddonChange, NewAddon, NewVariant, VariantChange } from './services.schemas.ts';

export async function insertVariant(db: Queryable, storeId: string, serviceId: string, v: NewVariant): Promise<void> {
  await db.query(
    `INSERT INTO service_variants (store_id, service_id, name, duration_min, price_pence, sort, is_active)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [storeId, serviceId, v.name, v.duration_min ?? null, v.price_pence ?? null, v.sort ?? 0, v.is_active ?? true],
  );
}

export async function insertAddon(db: Queryable, storeId: string, serviceId: string, a: NewAddon): Promise<void> {
  await db.query(
    `INSERT INTO service_addons (store_id, service_id, name, extra_min, extra_pence, sort, is_active)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [storeId, serviceId, a.name, a.extra_min ?? 0, a.extra_pence ?? 0, a.sort ?? 0, a.is_active ?? true],
  );
}

/** Sets the fields present (duration_min and price_pence may be set to null); false when no such variant. */
export async function updateVariant(
  db: Queryable,
  storeId: string,
  serviceId: string,
  change: VariantChange & { id: string },
): Promise<boolean> {
  const res = await db.query(
    `UPDATE service_variants SET
        name = COALESCE($4, name),
        duration_min = CASE WHEN $5::boolean THEN $6::integer ELSE duration_min END,
        price_pence = CASE WHEN $7::boolean THEN $8::integer ELSE price_pence END,
        sort = COALESCE($9, sort),
        is_active = COALESCE($10, is_active)
      WHERE store_id = $1 AND service_id = $2 AND id = $3
      RETURNING id`,
    [
      storeId,
      serviceId,
      change.id,
      change.name ?? null,
      change.duration_min !== undefined,
      change.duration_min ?? null,
      change.price_pence !== undefined,
      change.price_pence ?? null,
      change.sort ?? null,
      change.is_active ?? null,
    ],
  );
  return res.rowCount > 0;
}

/** Sets the fields present; false when no such add-on. */
export async function updateAddon(
  db: Queryable,
  storeId: string,
  serviceId: string,
  change: AddonChange & { id: string },
): Promise<boolean> {
  // None of these columns is nullable, so an absent field (null here) keeps the stored value.
  const res = await db.query(
    `UPDATE service_addons SET
        name = COALESCE($4, name),
        extra_min = COALESCE($5, extra_min),
        extra_pence = COALESCE($6, extra_pence),
        sort = COALESCE($7, sort),
        is_active = COALESCE($8, is_active)
      WHERE store_id = $1 AND service_id = $2 AND id = $3
      RETURNING id`,
    [
      storeId,
      serviceId,
      change.id,
      change.name ?? null,
      change.extra_min ?? null,
      change.extra_pence ?? null,
      change.sort ?? null,
      change.is_active ?? null,
    ],
  );
  return res.rowCount > 0;
}
