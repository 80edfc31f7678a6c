// Sign-in throttling: after 10 failures in 15 minutes an account answers 429, and so does a client
// address after 100 in an hour, each with Retry-After until the oldest failure in the window ages
// out. Nothing locks an account for good. The account is the email's hash, so an address without
// an account is throttled exactly as one with (the answers never tell them apart).
import { createHash } from 'node:crypto';
import type { Queryable } from '../../platform/db/port.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import * as repo from './sign-in.repository.ts';

export const ACCOUNT_LIMIT = 10;
export const ACCOUNT_WINDOW_S = 15 * 60;
export const ADDRESS_LIMIT = 100;
export const ADDRESS_WINDOW_S = 60 * 60;

export interface ThrottleSubjects {
  account: string;
  address: string;
}

export function subjectsOf(email: string, address: string): ThrottleSubjects {
  return {
    account: `account:${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url')}`,
    address: `address:${address}`,
  };
}

function retryAfter(oldest: string | null, windowS: number, at: Date): string {
  const until = (oldest ? new Date(oldest).getTime() : at.getTime()) + windowS * 1000;
  return String(Math.max(1, Math.ceil((until - at.getTime()) / 1000)));
}

/** Refuses with 429 TOO_MANY_SIGN_INS while either subject is over its limit. */
export async function assertNotThrottled(db: Queryable, subjects: ThrottleSubjects, at: Date): Promise<void> {
  const c = await repo.countFailures(db, {
    ...subjects,
    at,
    accountWindowS: ACCOUNT_WINDOW_S,
    addressWindowS: ADDRESS_WINDOW_S,
  });
  if (c.account >= ACCOUNT_LIMIT) {
    throw new AppError('TOO_MANY_SIGN_INS', 'Too many failed sign-ins for this account; try again later', {
      'retry-after': retryAfter(c.account_oldest, ACCOUNT_WINDOW_S, at),
    });
  }
  if (c.address >= ADDRESS_LIMIT) {
    throw new AppError('TOO_MANY_SIGN_INS', 'Too many failed sign-ins from this address; try again later', {
      'retry-after': retryAfter(c.address_oldest, ADDRESS_WINDOW_S, at),
    });
  }
}

export function recordFailure(db: Queryable, subjects: ThrottleSubjects, at: Date): Promise<void> {
  return repo.recordFailure(db, { ...subjects, at, keepS: ADDRESS_WINDOW_S });
}
