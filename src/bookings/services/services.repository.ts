// SQL for services. Every statement filters on store_id: another store's service is invisible here.
import type { Queryable } from '../../platform/db/port.ts';
import type { Service } from './services.schemas.ts';

// The record as the spec shows it: deposit_policy is deliberately not selected (never returned).
const SERVICE_COLUMNS = `s.id, s.store_id, s.category, s.name, s.description, s.images, s.duration_min, s.price_pence,
  s.currency, s.price_type, s.party_min, s.party_max, s.buffer_before_min, s.buffer_after_min, s.processing_min,
  s.location_type, s.rebook_interval_days, s.online_visible, s.sort, s.is_active`;

// Variants and add-ons come back nested, in display order, in the same statement as their service.
const NESTED = `
  COALESCE((SELECT json_agg(json_build_object('id', v.id, 'name', v.name, 'duration_min', v.duration_min,
                     'price_pence', v.price_pence, 'sort', v.sort, 'is_active', v.is_active) ORDER BY v.sort, v.name, v.id)
              FROM service_variants v WHERE v.store_id = s.store_id AND v.service_id = s.id), '[]'::json) AS variants,
  COALESCE((SELECT json_agg(json_build_object('id', a.id, 'name', a.name, 'extra_min', a.extra_min,
                     'extra_pence', a.extra_pence, 'sort', a.sort, 'is_active', a.is_active) ORDER BY a.sort, a.name, a.id)
              FROM service_addons a WHERE a.store_id = s.store_id AND a.service_id = s.id), '[]'::json) AS addons`;

export async function listServices(db: Queryable, storeId: string, includeArchived: boolean): Promise<Service[]> {
  const res = await db.query<Service>(
    `SELECT ${SERVICE_COLUMNS}, ${NESTED} FROM services s
      WHERE s.store_id = $1 AND ($2 OR s.is_active)
      ORDER BY s.sort, s.name, s.id`,
    [storeId, includeArchived],
  );
  return res.rows;
}

export async function findService(db: Queryable, storeId: string, id: string): Promise<Service | null> {
  const res = await db.query<Service>(
    `SELECT ${SERVICE_COLUMNS}, ${NESTED} FROM services s WHERE s.store_id = $1 AND s.id = $2`,
    [storeId, id],
  );
  return res.rows[0] ?? null;
}

export async function findServiceIdByToken(
  db: Queryable,
  storeId: string,
  clientToken: string,
): Promise<string | null> {
  const res = await db.query<{ id: string }>('SELECT id FROM services WHERE store_id = $1 AND client_token = $2', [
    storeId,
    clientToken,
  ]);
  return res.rows[0]?.id ?? null;
}

/** Locks the service row for the rest of the transaction, so checks across fields see what the update will change. */
export async function lockService(
  db: Queryable,
  storeId: string,
  id: string,
): Promise<{ party_min: number; party_max: number } | null> {
  const res = await db.query<{ party_min: number; party_max: number }>(
    'SELECT party_min, party_max FROM services WHERE store_id = $1 AND id = $2 FOR UPDATE',
    [storeId, id],
  );
  return res.rows[0] ?? null;
}

/** The store's currency, or null when there is no such store. */
export async function storeCurrency(db: Queryable, storeId: string): Promise<string | null> {
  const res = await db.query<{ currency: string }>('SELECT currency FROM stores WHERE id = $1', [storeId]);
  return res.rows[0]?.currency ?? null;
}

/** The writable columns and how each value is passed (jsonb is sent as text). */
export const WRITABLE = {
  category: 'text',
  name: 'text',
  description: 'text',
  images: 'text[]',
  duration_min: 'integer',
  price_pence: 'integer',
  currency: 'text',
  price_type: 'text',
  party_min: 'integer',
  party_max: 'integer',
  deposit_policy: 'jsonb',
  buffer_before_min: 'integer',
  buffer_after_min: 'integer',
  processing_min: 'integer',
  location_type: 'text',
  rebook_interval_days: 'integer',
  online_visible: 'boolean',
  sort: 'integer',
  is_active: 'boolean',
} as const;
export type ServiceFields = Partial<Record<keyof typeof WRITABLE, unknown>>;

/** Column names come only from WRITABLE, never from the request, so they are safe to splice into SQL. */
function writableColumns(fields: ServiceFields): Array<keyof typeof WRITABLE> {
  return (Object.keys(fields) as Array<keyof typeof WRITABLE>).filter(
    (c) => Object.hasOwn(WRITABLE, c) && fields[c] !== undefined,
  );
}

function param(column: keyof typeof WRITABLE, value: unknown): unknown {
  return WRITABLE[column] === 'jsonb' && value !== null ? JSON.stringify(value) : value;
}

/**
 * Inserts the service with the fields given (the rest take the column defaults), or returns null
 * when the store already has a service with this client_token: the partial unique index
 * services_client_token decides, so concurrent creates with one token insert once.
 */
export async function insertService(
  db: Queryable,
  storeId: string,
  clientToken: string | null,
  fields: ServiceFields,
  now: string,
): Promise<string | null> {
  const columns = writableColumns(fields);
  const values = columns.map((c) => param(c, fields[c]));
  const placeholders = columns.map((c, i) => `$${i + 4}::${WRITABLE[c]}`);
  const res = await db.query<{ id: string }>(
    `INSERT INTO services (store_id, client_token, created_at, updated_at${columns.map((c) => `, ${c}`).join('')})
     VALUES ($1, $2, $3, $3${placeholders.map((p) => `, ${p}`).join('')})
     ON CONFLICT (store_id, client_token) WHERE client_token IS NOT NULL DO NOTHING
     RETURNING id`,
    [storeId, clientToken, now, ...values],
  );
  return res.rows[0]?.id ?? null;
}

/** Sets only the fields given; the caller has locked the row and knows it exists. */
export async function updateService(
  db: Queryable,
  storeId: string,
  id: string,
  fields: ServiceFields,
  now: string,
): Promise<void> {
  const columns = writableColumns(fields);
  const sets = columns.map((c, i) => `${c} = $${i + 4}::${WRITABLE[c]}`);
  await db.query(
    `UPDATE services SET updated_at = $3${sets.map((s) => `, ${s}`).join('')} WHERE store_id = $1 AND id = $2`,
    [storeId, id, now, ...columns.map((c) => param(c, fields[c]))],
  );
}
