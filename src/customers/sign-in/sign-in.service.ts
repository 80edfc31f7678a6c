// Email code sign-in for the booking page (NIST SP 800-63B: a code sent to an inbox proves control
// of that inbox, nothing more; enough to book, never the back office):
// - 6 digits from a CSPRNG (crypto.randomInt), stored only as an HMAC-SHA256 with a server key;
// - lives 10 minutes, works once, a new code replaces the last, 5 wrong tries kill it;
// - at most 5 sends an hour per email and 20 per client address (send-limits.ts);
// - the answer to "send me a code" is the same in content and time whether or not the email belongs
//   to anyone: sending never looks the customer up, and the mail goes after the answer;
// - a verified email finds its customer, or creates one; the name and phone typed on the page are
//   used only for a new customer (Easy!Appointments #621/#721).
// The token is a customer token (src/platform/auth/tokens.ts), about 2 hours.
import { randomInt, timingSafeEqual } from 'node:crypto';
import type { Database } from '../../platform/db/port.ts';
import type { Clock } from '../../platform/clock.ts';
import type { TokenService } from '../../platform/auth/tokens.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { ukMobileE164 } from '../profile/uk-mobile.ts';
import { keyedHash } from '../../booking-page/page-keys.ts';
import type { Budget } from './send-limits.ts';
import type { CodeMailer } from './code-mail.ts';
import * as repo from './email-codes.repository.ts';
import type { SignInMode } from '../../notifications/delivery/delivery-mode.ts';

export const CODE_TTL_S = 600;
export const MAX_WRONG_TRIES = 5;
export const SENDS_PER_EMAIL_PER_HOUR = 5;
export const SENDS_PER_ADDRESS_PER_HOUR = 20;
export const CUSTOMER_TOKEN_TTL_S = 2 * 3600;
const HOUR_MS = 3_600_000;

export interface SignInDeps {
  db: Database;
  clock: Clock;
  tokens: TokenService;
  /** Keys derived from AUTH_SECRET: one hashes emails (and addresses), one hashes codes. */
  emailKey: Buffer;
  codeKey: Buffer;
  budget: Budget;
  mailer: CodeMailer;
  /** How codes can reach a customer here (src/notifications/delivery/delivery-mode.ts). */
  signInMode: SignInMode;
}

export interface PageStore {
  id: string;
  name: string;
}

const normaliseEmail = (email: string) => email.trim().toLowerCase();
const codeHash = (deps: SignInDeps, storeId: string, emailHash: string, code: string) => keyedHash(deps.codeKey, `${storeId}:${emailHash}:${code}`);

export async function sendCode(deps: SignInDeps, store: PageStore, rawEmail: string, addressHash: string): Promise<{ sent: true; expires_in_s: number }> {
  // The page is told (sign_in 'none'); an answer of "sent" here would be a lie.
  if (deps.signInMode === 'none' || deps.signInMode === 'sms') throw new AppError('SIGN_IN_UNAVAILABLE', 'This shop cannot send a code by email; please call the shop to book');
  const email = normaliseEmail(rawEmail);
  const emailHash = keyedHash(deps.emailKey, email);
  const now = deps.clock.now();
  for (const [key, max] of [[`a:${addressHash}`, SENDS_PER_ADDRESS_PER_HOUR], [`e:${emailHash}`, SENDS_PER_EMAIL_PER_HOUR]] as const) {
    const taken = await deps.budget.take(key, max, HOUR_MS, now.getTime());
    if (!taken.ok) {
      throw new AppError('TOO_MANY_CODES', `Too many codes asked for; try again in ${Math.ceil(taken.retryAfterS / 60)} minutes`, { 'retry-after': String(taken.retryAfterS) });
    }
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(now.getTime() + CODE_TTL_S * 1000).toISOString();
  await repo.dropExpired(deps.db, now.toISOString());
  await repo.replaceCode(deps.db, store.id, emailHash, codeHash(deps, store.id, emailHash, code), expiresAt, now.toISOString());
  // After the answer: its time never depends on the mail server, nor on whose address it is.
  setImmediate(() => void deps.mailer.send({ storeId: store.id, to: email, code, storeName: store.name, minutes: CODE_TTL_S / 60, expiresAt, sentAt: now.toISOString() }));
  return { sent: true, expires_in_s: CODE_TTL_S };
}

export interface VerifyInput {
  email: string;
  code: string;
  name?: string | null;
  phone?: string | null;
}

type Outcome = { ok: true; customer: repo.SignedInCustomer } | { ok: false; error: AppError };

export async function verifyCode(deps: SignInDeps, store: PageStore, input: VerifyInput) {
  const email = normaliseEmail(input.email);
  const emailHash = keyedHash(deps.emailKey, email);
  // The new customer's details are checked before the code is spent.
  const phone = input.phone?.trim() ? ukMobileE164(input.phone) : null;
  if (input.phone?.trim() && !phone) throw new AppError('INVALID_PHONE', 'The phone number must be a UK mobile number');
  const name = input.name?.trim() || null;
  const now = deps.clock.now();
  const expired = (why: string) => new AppError('CODE_EXPIRED', `${why}; ask for a new code`);

  // A wrong try is counted (committed) even though the answer is a refusal.
  const outcome = await deps.db.transaction(async (tx): Promise<Outcome> => {
    const row = await repo.lockCode(tx, store.id, emailHash);
    if (!row) return { ok: false, error: expired('There is no code for this email') };
    if (row.used_at) return { ok: false, error: expired('That code was already used') };
    if (Date.parse(row.expires_at) <= now.getTime()) return { ok: false, error: expired('That code has expired') };
    if (row.attempts >= MAX_WRONG_TRIES) return { ok: false, error: expired('That code was tried wrongly too many times') };
    const expected = Buffer.from(row.code_hash, 'hex');
    const given = Buffer.from(codeHash(deps, store.id, emailHash, input.code), 'hex');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      const attempts = await repo.countWrongTry(tx, store.id, emailHash);
      const left = MAX_WRONG_TRIES - attempts;
      return {
        ok: false,
        error: left <= 0
          ? expired('That code was wrong 5 times and no longer works')
          : new AppError('CODE_INVALID', `That code is not right; ${left} ${left === 1 ? 'try' : 'tries'} left`),
      };
    }
    await repo.markUsed(tx, store.id, emailHash, now.toISOString());
    const customer = await repo.findOrCreateCustomer(tx, email, { name, phone }, now.toISOString());
    if (customer.erased_at) throw new AppError('CUSTOMER_ERASED', 'This customer asked to be deleted and cannot book');
    return { ok: true, customer };
  });
  if (!outcome.ok) throw outcome.error;
  // Stamped by the wall clock, as the token service verifies it (not the injectable clock).
  const { token } = await deps.tokens.sign({ kind: 'customer', customer_id: outcome.customer.id }, CUSTOMER_TOKEN_TTL_S);
  return {
    token,
    expires_in_s: CUSTOMER_TOKEN_TTL_S,
    customer: { id: outcome.customer.id, name: outcome.customer.name, email: outcome.customer.email },
  };
}
