// SQL for a store's webhook endpoints. Every statement filters on store_id: another store's endpoint
// reads like a missing one.
import type { Queryable } from '../platform/db/port.ts';

export interface EndpointRow {
  id: string;
  store_id: string;
  url: string;
  description: string | null;
  event_types: string[] | null;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'id, store_id, url, description, event_types, enabled, disabled_reason, created_at, updated_at';

export async function insertEndpoint(
  db: Queryable,
  e: {
    storeId: string;
    url: string;
    description: string | null;
    eventTypes: string[] | null;
    secret: string;
    now: string;
  },
): Promise<EndpointRow> {
  const res = await db.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (store_id, url, description, event_types, secret, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING ${COLUMNS}`,
    [e.storeId, e.url, e.description, e.eventTypes, e.secret, e.now],
  );
  return res.rows[0];
}

export async function listEndpoints(db: Queryable, storeId: string): Promise<EndpointRow[]> {
  const res = await db.query<EndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE store_id = $1 ORDER BY created_at, id`,
    [storeId],
  );
  return res.rows;
}

/** The endpoint, locked for a change (FOR NO KEY UPDATE: deliveries referencing it are not blocked). */
export async function lockEndpoint(db: Queryable, storeId: string, id: string): Promise<EndpointRow | null> {
  const res = await db.query<EndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND store_id = $2 FOR NO KEY UPDATE`,
    [id, storeId],
  );
  return res.rows[0] ?? null;
}

export async function findEndpoint(db: Queryable, storeId: string, id: string): Promise<EndpointRow | null> {
  const res = await db.query<EndpointRow>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND store_id = $2`, [
    id,
    storeId,
  ]);
  return res.rows[0] ?? null;
}

export interface EndpointChange {
  url?: string;
  description?: string | null;
  eventTypes?: string[] | null;
  enabled?: boolean;
}

export async function updateEndpoint(
  db: Queryable,
  storeId: string,
  id: string,
  c: EndpointChange,
  now: string,
): Promise<EndpointRow> {
  const res = await db.query<EndpointRow>(
    `UPDATE webhook_endpoints
        SET url = CASE WHEN $3 THEN $4 ELSE url END,
            description = CASE WHEN $5 THEN $6 ELSE description END,
            event_types = CASE WHEN $7 THEN $8::text[] ELSE event_types END,
            enabled = coalesce($9, enabled),
            -- Enabling clears why it was disabled and its failure run; disabling by hand has no reason.
            disabled_reason = CASE WHEN $9 IS NULL THEN disabled_reason ELSE NULL END,
            failing_since = CASE WHEN $9 THEN NULL ELSE failing_since END,
            updated_at = $10
      WHERE id = $1 AND store_id = $2
      RETURNING ${COLUMNS}`,
    [
      id,
      storeId,
      c.url !== undefined,
      c.url ?? null,
      c.description !== undefined,
      c.description ?? null,
      c.eventTypes !== undefined,
      c.eventTypes ?? null,
      c.enabled ?? null,
      now,
    ],
  );
  return res.rows[0];
}

export async function deleteEndpoint(db: Queryable, storeId: string, id: string): Promise<boolean> {
  const res = await db.query('DELETE FROM webhook_endpoints WHERE id = $1 AND store_id = $2', [id, storeId]);
  return res.rowCount > 0;
}

/** Rotation: the current secret becomes the previous one, signing alongside the new until expiresAt. */
export async function rotateSecret(
  db: Queryable,
  storeId: string,
  id: string,
  secret: string,
  now: string,
  expiresAt: string,
): Promise<EndpointRow | null> {
  const res = await db.query<EndpointRow>(
    `UPDATE webhook_endpoints
        SET previous_secret = secret, previous_expires_at = $4, secret = $3, updated_at = $5
      WHERE id = $1 AND store_id = $2
      RETURNING ${COLUMNS}`,
    [id, storeId, secret, expiresAt, now],
  );
  return res.rows[0] ?? null;
}

/**
 * Disables an enabled endpoint (the worker: 410 Gone, or 5 days of failures) and fails its pending
 * deliveries. Returns the endpoint only if this call disabled it, so the event is recorded once.
 */
export async function disableEndpoint(
  db: Queryable,
  id: string,
  reason: 'gone' | 'failing',
  now: string,
): Promise<EndpointRow | null> {
  const res = await db.query<EndpointRow>(
    `WITH off AS (
       UPDATE webhook_endpoints SET enabled = false, disabled_reason = $2, updated_at = $3
        WHERE id = $1 AND enabled
        RETURNING ${COLUMNS}
     ), failed AS (
       UPDATE webhook_deliveries d SET status = 'failed', locked_until = NULL, updated_at = $3
         FROM off WHERE d.endpoint_id = off.id AND d.status = 'pending'
     )
     SELECT * FROM off`,
    [id, reason, now],
  );
  return res.rows[0] ?? null;
}
