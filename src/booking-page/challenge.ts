// The proof-of-work challenge (ALTCHA, altcha-lib's v1 format, which the page's widget solves): it
// guards sending a code and placing a hold, with no third party. The HMAC key is derived from
// AUTH_SECRET; a challenge expires after CHALLENGE_TTL_MS, and a solved payload works once: its
// signature is kept as spent until the challenge would have expired anyway (Redis when REDIS_URL is
// set, else the spent_challenges table), and a second use is refused.
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import type { Redis } from 'ioredis';
import type { Database } from '../platform/db/port.ts';
import type { Clock } from '../platform/clock.ts';
import { AppError } from '../platform/errors/app-error.ts';

export const CHALLENGE_TTL_MS = 10 * 60_000;
/** The search space: about 0.1-0.3 s of a phone's time on average, nothing for one person. */
export const CHALLENGE_MAX_NUMBER = 50_000;

export interface Challenges {
  create(): Promise<{ algorithm: string; challenge: string; maxnumber?: number; salt: string; signature: string }>;
  /** Refuses (CHALLENGE_FAILED) a payload that is malformed, wrong, expired or already spent; spends it. */
  spend(payload: string): Promise<void>;
}

const failed = () =>
  new AppError('CHALLENGE_FAILED', 'The security check did not pass or has expired; please try again');

export function challenges(hmacKey: string, db: Database, clock: Clock, redis: Redis | null): Challenges {
  async function markSpent(signature: string, expiresAtMs: number): Promise<boolean> {
    const now = clock.now();
    if (redis) {
      const ttl = Math.max(1, expiresAtMs - now.getTime());
      return (await redis.set(`bbo-altcha:${signature}`, '1', 'PX', ttl, 'NX')) === 'OK';
    }
    // Old entries go as new ones arrive (bounded: at most one challenge lifetime of them is kept).
    await db.query('DELETE FROM spent_challenges WHERE expires_at < $1', [now.toISOString()]);
    const res = await db.query(
      'INSERT INTO spent_challenges (signature, expires_at) VALUES ($1, $2) ON CONFLICT (signature) DO NOTHING',
      [signature, new Date(expiresAtMs).toISOString()],
    );
    return res.rowCount === 1;
  }

  return {
    async create() {
      const c = await createChallenge({
        hmacKey,
        maxnumber: CHALLENGE_MAX_NUMBER,
        expires: new Date(clock.now().getTime() + CHALLENGE_TTL_MS),
      });
      return {
        algorithm: c.algorithm,
        challenge: c.challenge,
        maxnumber: c.maxnumber,
        salt: c.salt,
        signature: c.signature,
      };
    },
    async spend(payload) {
      let decoded: { signature?: unknown };
      let expiresAtMs: number;
      try {
        decoded = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
        // Expiry against the service's clock (injectable), not the library's Date.now().
        expiresAtMs = Number(extractParams(decoded as never).expires) * 1000;
      } catch {
        throw failed();
      }
      if (
        typeof decoded.signature !== 'string' ||
        !Number.isFinite(expiresAtMs) ||
        expiresAtMs <= clock.now().getTime()
      )
        throw failed();
      if (!(await verifySolution(decoded as never, hmacKey, false).catch(() => false))) throw failed();
      if (!(await markSpent(decoded.signature, expiresAtMs))) throw failed();
    },
  };
}
