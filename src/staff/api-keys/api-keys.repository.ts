// Store API keys: only the SHA-256 of the key is kept, with its last four characters as a hint.
import type { Queryable } from '../../platform/db/port.ts';

export interface ApiKeyRow {
  id: string;
  name: string;
  scopes: string[];
  key_hint: string;
  created_at: string;
  last_used_at: string | null;
}

export interface LiveKey {
  id: string;
  store_id: string;
  name: string;
  scopes: string[];
}

/** The key's store, name and scopes when it is not revoked; last_used_at moves on at most once a minute. */
export async function findLiveKey(db: Queryable, keyHash: Buffer, at: Date): Promise<LiveKey | null> {
  const res = await db.query<LiveKey>(
    `WITH k AS (SELECT id, store_id, name, scopes FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL),
     touch AS (
       UPDATE api_keys SET last_used_at = $2
        WHERE id = (SELECT id FROM k) AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute'))
     SELECT * FROM k`,
    [keyHash, at],
  );
  return res.rows[0] ?? null;
}

export async function insertKey(
  db: Queryable,
  input: {
    storeId: string;
    name: string;
    scopes: string[];
    keyHash: Buffer;
    hint: string;
    createdBy: string | null;
    at: Date;
  },
): Promise<ApiKeyRow> {
  const res = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (store_id, name, scopes, key_hash, key_hint, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     RETURNING id, name, scopes, key_hint, created_at, last_used_at`,
    [input.storeId, input.name, input.scopes, input.keyHash, input.hint, input.createdBy, input.at],
  );
  return res.rows[0];
}

export async function listKeys(db: Queryable, storeId: string): Promise<ApiKeyRow[]> {
  const res = await db.query<ApiKeyRow>(
    `SELECT id, name, scopes, key_hint, created_at, last_used_at FROM api_keys
      WHERE store_id = $1 AND revoked_at IS NULL ORDER BY created_at, id`,
    [storeId],
  );
  return res.rows;
}

/** Revokes a live key of the store; null when there is none. */
export async function revokeKey(
  db: Queryable,
  input: { storeId: string; keyId: string; at: Date },
): Promise<{ id: string; name: string } | null> {
  const res = await db.query<{ id: string; name: string }>(
    `UPDATE api_keys SET revoked_at = $3 WHERE store_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id, name`,
    [input.storeId, input.keyId, input.at],
  );
  return res.rows[0] ?? null;
}
