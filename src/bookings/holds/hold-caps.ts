// The caps on live holds, the same at every door that places one (issue 41: one email code's token
// held a whole day through POST /bookings/holds). Counted by the hold functions under advisory locks
// (db/functions/customer-hold.sql, booking-page.sql), each within one store, so one shop's customers
// never use up another's:
// - at most 3 live holds per signed-in customer at a store (HOLDS_PER_CUSTOMER);
// - at most 3 per client address at a store (HOLDS_PER_ADDRESS): the address is kept as a keyed hash
//   of the store and the address together, so the count of one store's hash is that store's alone;
// - one per booking page session (a new one releases the last: bbo_page_hold).
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../platform/db/port.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { derivedKey, keyedHash } from '../../platform/auth/page-keys.ts';

/** What a door passes to the hold function: the address as holds keep it, and the caps (config.holdCaps). */
export interface HoldGuard {
  addressHash: string;
  perAddress: number;
  perCustomer: number;
}

export const holdAddressKey = (authSecret: string) => derivedKey(authSecret, 'client-address');

/** The client address as the holds keep it: per store (request.ip honours TRUST_PROXY). */
export const holdAddressHash = (key: Buffer, storeId: string, request: Pick<FastifyRequest, 'ip'>) =>
  keyedHash(key, `${storeId.toLowerCase()}:${request.ip}`);

/** Seconds until the first of these live holds lapses: the Retry-After of TOO_MANY_HOLDS. */
export async function firstHoldLapse(
  q: Queryable,
  storeId: string,
  by: { addressHash?: string | null; customerId?: string | null },
  now: Date,
): Promise<number> {
  const res = await q.query<{ first: string | null }>(
    `SELECT min(expires_at) AS first FROM holds
      WHERE store_id = $1 AND released_at IS NULL AND expires_at > $2
        AND (client_address_hash = $3 OR customer_id = $4)`,
    [storeId, now.toISOString(), by.addressHash ?? null, by.customerId ?? null],
  );
  const first = res.rows[0]?.first;
  return first ? Math.max(1, Math.ceil((Date.parse(first) - now.getTime()) / 1000)) : 1;
}

/** TOO_MANY_HOLDS from a hold function, given its Retry-After; any other error as it was. */
export async function withRetryAfter(
  err: unknown,
  q: Queryable,
  storeId: string,
  by: { addressHash?: string | null; customerId?: string | null },
  now: Date,
): Promise<never> {
  if (err instanceof AppError && err.code === 'TOO_MANY_HOLDS') {
    const retryAfter = await firstHoldLapse(q, storeId, by, now);
    throw new AppError('TOO_MANY_HOLDS', err.message, { 'retry-after': String(retryAfter) });
  }
  throw err;
}
