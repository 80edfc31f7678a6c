// Code sign-in for the booking page, by email or by text (NIST SP 800-63B: a code sent to an inbox
// or a phone proves control of it, nothing more; enough to book, never the back office):
// - 6 digits from a CSPRNG (crypto.randomInt), stored only as an HMAC-SHA256 with a server key;
// - lives 10 minutes, works once, a new code replaces the last, 5 wrong tries kill it;
// - at most 5 sends an hour per email or phone and 20 per client address (send-limits.ts);
// - at most 10 verify tries a minute from one address and 10 for one email or phone: a stranger
//   cannot burn someone's pending code in a burst;
// - the answer to "send me a code" is the same in content and time whether or not the email belongs
//   to anyone: sending never looks the customer up, and the mail goes after the answer; verify gives
//   one answer for "no code" and "wrong code", so it never tells whether a code is pending;
// - a verified email (or phone) finds its customer, or creates one; the name and the other contact
//   typed on the page are used only for a new customer (Easy!Appointments #621/#721).
// Email and phone codes share the code table (email_codes), keyed by a keyed hash of "the email" or
// of "tel:+44..." (an email never starts with "tel:"). The token is a customer token, about 2 hours.
import { randomInt, timingSafeEqual } from 'node:crypto';
import type { Database, Queryable } from '../../platform/db/port.ts';
import type { Clock } from '../../platform/clock.ts';
import type { TokenService } from '../../platform/auth/tokens.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { ukMobileE164 } from '../../platform/uk-mobile.ts';
import { keyedHash } from '../../platform/auth/page-keys.ts';
import type { Budget } from './send-limits.ts';
import type { CodeMailer } from './code-mail.ts';
import type { CodeTexter } from './code-text.ts';
import * as repo from './email-codes.repository.ts';
import type { SignInMode } from '../../notifications/delivery/delivery-mode.ts';

export const CODE_TTL_S = 600;
export const MAX_WRONG_TRIES = 5;
export const SENDS_PER_EMAIL_PER_HOUR = 5;
export const SENDS_PER_ADDRESS_PER_HOUR = 20;
export const VERIFIES_PER_ADDRESS_PER_MINUTE = 10;
export const VERIFIES_PER_EMAIL_PER_MINUTE = 10;
export const CUSTOMER_TOKEN_TTL_S = 2 * 3600;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

export interface SignInDeps {
  db: Database;
  clock: Clock;
  tokens: TokenService;
  /** Keys derived from AUTH_SECRET: one hashes emails and phones (and addresses), one hashes codes. */
  emailKey: Buffer;
  codeKey: Buffer;
  budget: Budget;
  mailer: CodeMailer;
  texter: CodeTexter;
  /** How codes can reach a customer here (src/notifications/delivery/delivery-mode.ts). */
  signInMode: SignInMode;
}

export interface PageStore {
  id: string;
  name: string;
}

const normaliseEmail = (email: string) => email.trim().toLowerCase();
const codeHash = (deps: SignInDeps, storeId: string, idHash: string, code: string) =>
  keyedHash(deps.codeKey, `${storeId}:${idHash}:${code}`);
const canEmail = (mode: SignInMode) => mode === 'email' || mode === 'email_or_sms';
const canText = (mode: SignInMode) => mode === 'sms' || mode === 'email_or_sms';

function ukMobileOrRefuse(input: string): string {
  const phone = ukMobileE164(input);
  if (!phone) throw new AppError('INVALID_PHONE', 'The phone number must be a UK mobile number');
  return phone;
}

async function take(
  deps: SignInDeps,
  budgets: ReadonlyArray<readonly [string, number]>,
  windowMs: number,
  refuse: (retryAfterS: number) => AppError,
) {
  const nowMs = deps.clock.now().getTime();
  for (const [key, max] of budgets) {
    const taken = await deps.budget.take(key, max, windowMs, nowMs);
    if (!taken.ok) throw refuse(taken.retryAfterS);
  }
}

/** The send budgets, then a new code for this identity (replacing the last); returns the code. */
async function issue(
  deps: SignInDeps,
  store: PageStore,
  idHash: string,
  addressHash: string,
): Promise<{ code: string; expiresAt: string; now: Date }> {
  await take(
    deps,
    [
      [`a:${addressHash}`, SENDS_PER_ADDRESS_PER_HOUR],
      [`e:${idHash}`, SENDS_PER_EMAIL_PER_HOUR],
    ],
    HOUR_MS,
    (s) =>
      new AppError('TOO_MANY_CODES', `Too many codes asked for; try again in ${Math.ceil(s / 60)} minutes`, {
        'retry-after': String(s),
      }),
  );
  const now = deps.clock.now();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(now.getTime() + CODE_TTL_S * 1000).toISOString();
  await repo.dropExpired(deps.db, now.toISOString());
  await repo.replaceCode(
    deps.db,
    store.id,
    idHash,
    codeHash(deps, store.id, idHash, code),
    expiresAt,
    now.toISOString(),
  );
  return { code, expiresAt, now };
}

export async function sendCode(
  deps: SignInDeps,
  store: PageStore,
  rawEmail: string,
  addressHash: string,
): Promise<{ sent: true; expires_in_s: number }> {
  // The page is told (sign_in); an answer of "sent" here would be a lie.
  if (!canEmail(deps.signInMode))
    throw new AppError('SIGN_IN_UNAVAILABLE', 'This shop cannot send a code by email; please call the shop to book');
  const email = normaliseEmail(rawEmail);
  const { code, expiresAt, now } = await issue(deps, store, keyedHash(deps.emailKey, email), addressHash);
  // After the answer: its time never depends on the mail server, nor on whose address it is.
  setImmediate(
    () =>
      void deps.mailer.send({
        storeId: store.id,
        to: email,
        code,
        storeName: store.name,
        minutes: CODE_TTL_S / 60,
        expiresAt,
        sentAt: now.toISOString(),
      }),
  );
  return { sent: true, expires_in_s: CODE_TTL_S };
}

export async function sendSmsCode(
  deps: SignInDeps,
  store: PageStore,
  rawPhone: string,
  addressHash: string,
): Promise<{ sent: true; expires_in_s: number }> {
  if (!canText(deps.signInMode))
    throw new AppError('SIGN_IN_UNAVAILABLE', 'This shop cannot send a code by text; use your email');
  const phone = ukMobileOrRefuse(rawPhone);
  const { code } = await issue(deps, store, keyedHash(deps.emailKey, `tel:${phone}`), addressHash);
  setImmediate(() => void deps.texter.send({ to: phone, code, storeName: store.name, minutes: CODE_TTL_S / 60 }));
  return { sent: true, expires_in_s: CODE_TTL_S };
}

/** No code, a wrong one, or one killed by wrong tries: one answer, so verify never tells whether a code is pending. */
const notRight = () =>
  new AppError('CODE_INVALID', 'That code is not right, or no longer works; check it or ask for a new code');
const expired = (why: string) => new AppError('CODE_EXPIRED', `${why}; ask for a new code`);

/** The verify budgets, then the code checked and spent under its row's lock; a wrong try is committed. */
async function spend<T>(
  deps: SignInDeps,
  store: PageStore,
  idHash: string,
  addressHash: string,
  given: string,
  then: (tx: Queryable, now: Date) => Promise<T>,
): Promise<T> {
  await take(
    deps,
    [
      [`va:${addressHash}`, VERIFIES_PER_ADDRESS_PER_MINUTE],
      [`ve:${idHash}`, VERIFIES_PER_EMAIL_PER_MINUTE],
    ],
    MINUTE_MS,
    (s) => new AppError('RATE_LIMITED', `Too many tries; try again in ${s} seconds`, { 'retry-after': String(s) }),
  );
  const now = deps.clock.now();
  const outcome = await deps.db.transaction(
    async (tx): Promise<{ ok: true; value: T } | { ok: false; error: AppError }> => {
      const row = await repo.lockCode(tx, store.id, idHash);
      if (!row || row.attempts >= MAX_WRONG_TRIES) return { ok: false, error: notRight() };
      if (row.used_at) return { ok: false, error: expired('That code was already used') };
      if (Date.parse(row.expires_at) <= now.getTime()) return { ok: false, error: expired('That code has expired') };
      const expected = Buffer.from(row.code_hash, 'hex');
      const tried = Buffer.from(codeHash(deps, store.id, idHash, given), 'hex');
      if (expected.length !== tried.length || !timingSafeEqual(expected, tried)) {
        await repo.countWrongTry(tx, store.id, idHash);
        return { ok: false, error: notRight() };
      }
      await repo.markUsed(tx, store.id, idHash, now.toISOString());
      return { ok: true, value: await then(tx, now) };
    },
  );
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

/** Inside the code's transaction: an erased customer is refused and the code stays unspent. */
function live(customer: repo.SignedInCustomer): repo.SignedInCustomer {
  if (customer.erased_at) throw new AppError('CUSTOMER_ERASED', 'This customer asked to be deleted and cannot book');
  return customer;
}

async function tokenFor(deps: SignInDeps, customer: repo.SignedInCustomer) {
  // Stamped by the wall clock, as the token service verifies it (not the injectable clock).
  const { token } = await deps.tokens.sign({ kind: 'customer', customer_id: customer.id }, CUSTOMER_TOKEN_TTL_S);
  return { token, expires_in_s: CUSTOMER_TOKEN_TTL_S };
}

export interface VerifyInput {
  email: string;
  code: string;
  name?: string | null;
  phone?: string | null;
}

export async function verifyCode(deps: SignInDeps, store: PageStore, input: VerifyInput, addressHash: string) {
  const email = normaliseEmail(input.email);
  // The new customer's details are checked before the code is spent.
  const phone = input.phone?.trim() ? ukMobileOrRefuse(input.phone) : null;
  const name = input.name?.trim() || null;
  const customer = await spend(deps, store, keyedHash(deps.emailKey, email), addressHash, input.code, async (tx, now) =>
    live(await repo.findOrCreateCustomer(tx, email, { name, phone }, now.toISOString())),
  );
  return {
    ...(await tokenFor(deps, customer)),
    customer: { id: customer.id, name: customer.name, email: customer.email },
  };
}

export interface VerifySmsInput {
  phone: string;
  code: string;
  name?: string | null;
  email?: string | null;
}

export async function verifySmsCode(deps: SignInDeps, store: PageStore, input: VerifySmsInput, addressHash: string) {
  const phone = ukMobileOrRefuse(input.phone);
  const email = input.email?.trim() ? normaliseEmail(input.email) : null;
  const name = input.name?.trim() || null;
  const customer = await spend(
    deps,
    store,
    keyedHash(deps.emailKey, `tel:${phone}`),
    addressHash,
    input.code,
    async (tx, now) => live(await repo.findOrCreateCustomerByPhone(tx, phone, { name, email }, now.toISOString())),
  );
  return {
    ...(await tokenFor(deps, customer)),
    customer: { id: customer.id, name: customer.name, email: customer.email, phone },
  };
}
