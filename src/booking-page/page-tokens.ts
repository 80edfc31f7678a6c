// The booking page's own signed tokens (jose, HS256), each with its own derived key and audience so
// none can act as another kind, nor as a customer or merchant token:
// - the page session: a random id naming one browser tab's checkout (it owns that tab's hold);
// - the manage link: names one appointment of one store and expires when the appointment ends. It
//   travels in the URL fragment (/book/{slug}/manage#token=...), so it never reaches a server log.
import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../platform/clock.ts';
import { AppError } from '../platform/errors/app-error.ts';
import { derivedKey } from '../platform/auth/page-keys.ts';

const ISSUER = 'bookings-back-office';
const SESSION_AUDIENCE = 'bbo:booking-page-session';
const MANAGE_AUDIENCE = 'bbo:booking-manage';
/** A tab's session outlives any hold it places (hold_minutes is at most 60). */
const SESSION_TTL_S = 24 * 3600;

export interface ManageClaims {
  appointmentId: string;
  storeId: string;
}

export interface PageTokens {
  newSession(): Promise<{ sessionId: string; token: string }>;
  /** The session id, or null when the token is absent, forged or expired. */
  session(token: string | undefined): Promise<string | null>;
  manageLink(claims: ManageClaims, endsAt: string): Promise<string>;
  /** Refuses MANAGE_LINK_INVALID when forged, of another kind, or past the appointment's end. */
  manage(token: string | undefined): Promise<ManageClaims>;
}

/** The token of an "Authorization: Bearer <token>" header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/.exec(header?.trim() ?? '')?.[1];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function pageTokens(authSecret: string, clock: Clock): PageTokens {
  const sessionKey = derivedKey(authSecret, 'page-session');
  const manageKey = derivedKey(authSecret, 'manage-link');
  const nowS = () => Math.floor(clock.now().getTime() / 1000);
  const verify = (token: string, key: Uint8Array, audience: string) =>
    jwtVerify(token, key, {
      issuer: ISSUER,
      audience,
      algorithms: ['HS256'],
      currentDate: clock.now(),
      clockTolerance: 0,
    });

  return {
    async newSession() {
      const sessionId = randomUUID();
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(SESSION_AUDIENCE)
        .setSubject(sessionId)
        .setIssuedAt(nowS())
        .setExpirationTime(nowS() + SESSION_TTL_S)
        .sign(sessionKey);
      return { sessionId, token };
    },
    async session(token) {
      if (!token || token.length > 1000) return null;
      try {
        const { payload } = await verify(token, sessionKey, SESSION_AUDIENCE);
        return typeof payload.sub === 'string' && UUID.test(payload.sub) ? payload.sub.toLowerCase() : null;
      } catch {
        return null;
      }
    },
    async manageLink(claims, endsAt) {
      return new SignJWT({ store_id: claims.storeId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(MANAGE_AUDIENCE)
        .setSubject(claims.appointmentId)
        .setIssuedAt(nowS())
        .setExpirationTime(Math.floor(Date.parse(endsAt) / 1000))
        .sign(manageKey);
    },
    async manage(token) {
      const invalid = new AppError('MANAGE_LINK_INVALID', 'This booking link is not valid or has expired');
      if (!token || token.length > 2000) throw invalid;
      try {
        const { payload } = await verify(token, manageKey, MANAGE_AUDIENCE);
        if (
          typeof payload.sub !== 'string' ||
          !UUID.test(payload.sub) ||
          typeof payload.store_id !== 'string' ||
          !UUID.test(payload.store_id)
        )
          throw invalid;
        return { appointmentId: payload.sub.toLowerCase(), storeId: payload.store_id.toLowerCase() };
      } catch {
        throw invalid;
      }
    },
  };
}
