// Passwords: argon2id at OWASP's minimum or above, and the NIST SP 800-63B rev. 4 rules: a length
// floor (15 when the password is the only factor, 8 once the person has a passkey), at least 64
// accepted (256 here), no composition rules, and no password from a published list of common ones.
import { hash, verify } from '@node-rs/argon2';
import { AppError } from '../../platform/errors/app-error.ts';
import type { CommonPasswords } from './common-passwords.ts';

// OWASP Password Storage Cheat Sheet: argon2id, m = 19 MiB, t = 2, p = 1 at the least.
const ARGON2ID = 2; // Algorithm.Argon2id (a const enum, which type stripping cannot read)
export const HASH_OPTIONS = Object.freeze({ algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 });

export const MAX_PASSWORD = 256;

export function hashPassword(password: string): Promise<string> {
  return hash(password, HASH_OPTIONS as any);
}

// A hash of nothing anyone knows: an unknown email is verified against it so that it costs the
// same argon2id work as a wrong password (the same answer, within noise the same time).
let dummy: Promise<string> | null = null;
function dummyHash(): Promise<string> {
  dummy ??= hash(`no account ${Math.random()}${Date.now()}`, HASH_OPTIONS as any);
  return dummy;
}

/** Whether password matches hashed; with no hash, spends the same work and answers false. */
export async function verifyPassword(hashed: string | null, password: string): Promise<boolean> {
  if (!hashed) {
    await verify(await dummyHash(), password).catch(() => false);
    return false;
  }
  return verify(hashed, password).catch(() => false);
}

/** Counts characters as a person does (code points), not UTF-16 units. */
function length(password: string): number {
  return [...password.normalize('NFC')].length;
}

/** Refuses a password that breaks the rules with WEAK_PASSWORD; the message says which rule. */
export async function assertPasswordAllowed(
  password: string,
  options: { hasPasskey: boolean },
  common: CommonPasswords,
): Promise<void> {
  const min = options.hasPasskey ? 8 : 15;
  const n = length(password);
  if (n < min) {
    throw new AppError(
      'WEAK_PASSWORD',
      options.hasPasskey
        ? `A password needs at least ${min} characters`
        : `A password needs at least ${min} characters while it is the only way to sign in (8 once a passkey is added)`,
    );
  }
  if (n > MAX_PASSWORD) throw new AppError('WEAK_PASSWORD', `A password has at most ${MAX_PASSWORD} characters`);
  if (await common.has(password))
    throw new AppError('WEAK_PASSWORD', 'That password is on a list of commonly used ones; choose another');
}
