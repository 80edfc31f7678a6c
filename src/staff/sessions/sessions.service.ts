// Staff sessions: one model whatever the way in (password, invitation, passkey, OIDC). A session is
// a random 256-bit token in an HttpOnly cookie; the server keeps only its SHA-256. A new session at
// every sign-in; ended on the server by sign-out, by disabling or removing the member, or by expiry
// (idle STAFF_SESSION_IDLE_MINUTES, absolute STAFF_SESSION_MAX_DAYS).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/port.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { newSecret, secretHash } from '../secrets.ts';
import * as repo from './sessions.repository.ts';

export const SESSION_COOKIE = 'bbo_session';

/** What starting or reading a session needs: app.deps (request.server.deps) is one. */
export interface SessionDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly config: Config;
}

export interface StartedSession {
  sessionId: string;
  expiresAt: string;
}

function cookie(config: Config, value: string, maxAgeSeconds: number): string {
  const parts = [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`];
  if (config.staff.secureCookie) parts.push('Secure');
  return parts.join('; ');
}

/**
 * Signs a person in at a store: a new session row and its cookie on the reply. The caller has
 * proved who the person is (password, invitation, passkey, OIDC). Refuses with UNAUTHENTICATED when
 * the person has no enabled place at the store. Stamps the membership's last_sign_in_at.
 */
export async function startSession(
  deps: SessionDeps,
  who: { staffId: string; storeId: string; userAgent?: string | null },
  reply: FastifyReply,
): Promise<StartedSession> {
  const token = newSecret();
  const at = deps.clock.now();
  const expiresAt = new Date(at.getTime() + deps.config.staff.sessionMaxMs);
  const userAgent = who.userAgent ? who.userAgent.slice(0, 200) : null;
  const row = await repo.insertSession(deps.db, {
    tokenHash: secretHash(token),
    staffId: who.staffId,
    storeId: who.storeId,
    at,
    expiresAt,
    userAgent,
  });
  if (!row) throw new AppError('UNAUTHENTICATED', 'This account has no enabled place at that store');
  reply.header('set-cookie', cookie(deps.config, token, Math.floor(deps.config.staff.sessionMaxMs / 1000)));
  reply.header('cache-control', 'no-store');
  return { sessionId: row.id, expiresAt: expiresAt.toISOString() };
}

/** The session token of the request's cookie, or null when it carries none. */
export function sessionToken(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
    }
  }
  return null;
}

/** The live session behind a token, with its member as they are now; null when it has ended or expired. */
export async function readSession(deps: SessionDeps, token: string): Promise<repo.SessionPrincipal | null> {
  return repo.findLiveSession(deps.db, secretHash(token), deps.clock.now(), deps.config.staff.sessionIdleMs);
}

/** Ends the request's session on the server and clears the cookie. */
export async function endCurrentSession(
  deps: SessionDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const token = sessionToken(request);
  if (token) await repo.endSessionByHash(deps.db, secretHash(token), deps.clock.now());
  reply.header('set-cookie', cookie(deps.config, '', 0));
}

export { endAllSessions } from './sessions.repository.ts';
