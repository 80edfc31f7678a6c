// Idempotency-Key: the first successful result of a mutating request is stored in the same
// transaction as its effect, scoped to (principal, method, path, key). A retry with the same
// request replays it; the same key with another request is refused (422); a duplicate that
// arrives while the first is still running is refused (409). Records live 24 hours.
// Failed requests (4xx/5xx) store nothing: their transaction rolled back, so a retry runs afresh.
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors/app-error.ts';
import { canonicalJson } from './canonical-json.ts';
import type { Tx } from './db/port.ts';
import { withCollected, type Collected } from './flush.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const REPLAY_HEADER = 'idempotent-replayed';
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyClaim {
  principal: string;
  method: string;
  path: string;
  key: string;
  requestHash: string;
  lockKey: string;
}

export interface StoredResult {
  statusCode: number;
  body: unknown;
}

export function readIdempotencyClaim(request: FastifyRequest, principal: string): IdempotencyClaim | null {
  if (!['POST', 'PATCH', 'DELETE', 'PUT'].includes(request.method)) return null;
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!KEY_PATTERN.test(key)) {
    throw new AppError('INVALID_IDEMPOTENCY_KEY', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
  }
  const [path, query = ''] = request.url.split('?');
  const requestHash = createHash('sha256')
    .update(canonicalJson(request.body ?? null))
    .update('\n')
    .update(query)
    .digest('hex');
  const lockKey = [principal, request.method, path, key].join('\n');
  return { principal, method: request.method, path, key, requestHash, lockKey };
}

/**
 * Called first inside the request's transaction. Returns the stored result to replay, or null
 * when this request is the first and should run.
 */
export async function claimIdempotency(tx: Tx, claim: IdempotencyClaim, now: Date): Promise<StoredResult | null> {
  // A transaction-scoped lock on the key: whoever holds it is running the request right now.
  const locked = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [
    claim.lockKey,
  ]);
  if (!locked.rows[0].ok) {
    throw new AppError(
      'IDEMPOTENCY_IN_PROGRESS',
      'A request with this Idempotency-Key is still running; retry shortly',
      {
        'retry-after': '1',
      },
    );
  }
  const found = await tx.query<{ request_hash: string; status_code: number; body: unknown; expires_at: string }>(
    `SELECT request_hash, status_code, body, expires_at FROM idempotency_records
      WHERE principal = $1 AND method = $2 AND path = $3 AND key = $4`,
    [claim.principal, claim.method, claim.path, claim.key],
  );
  const record = found.rows[0];
  if (!record) return null;
  if (new Date(record.expires_at) <= now) {
    await tx.query('DELETE FROM idempotency_records WHERE principal = $1 AND method = $2 AND path = $3 AND key = $4', [
      claim.principal,
      claim.method,
      claim.path,
      claim.key,
    ]);
    return null;
  }
  if (record.request_hash !== claim.requestHash) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request');
  }
  return { statusCode: record.status_code, body: record.body };
}

/**
 * Stores the first result, and in the same statement writes the audit rows and events the request's
 * transaction collected, so all of them commit (or none does) with the effect.
 */
export async function storeIdempotentResult(
  tx: Tx,
  claim: IdempotencyClaim,
  result: StoredResult,
  now: Date,
  collected: Collected = NOTHING,
) {
  const insert = `INSERT INTO idempotency_records (principal, method, path, key, request_hash, status_code, body, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;
  const params: unknown[] = [
    claim.principal,
    claim.method,
    claim.path,
    claim.key,
    claim.requestHash,
    result.statusCode,
    JSON.stringify(result.body ?? null),
    now.toISOString(),
    new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
  ];
  const statement = withCollected(insert, params, collected)!;
  await tx.query(statement.sql, statement.params);
}

const NOTHING: Collected = { audit: [], events: [] };

export async function purgeExpiredIdempotency(db: Tx, now: Date): Promise<number> {
  const res = await db.query('DELETE FROM idempotency_records WHERE expires_at <= $1', [now.toISOString()]);
  return res.rowCount;
}
