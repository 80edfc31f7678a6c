// The signed-in person behind a passkey route: the staff session cookie, read through the session
// service (src/staff/sessions). Adding or removing a passkey is about the person, so a merchant JWT
// or an API key cannot do it; and the write must come from the service's own origin.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors/app-error.ts';
import { readSession, sessionToken } from '../sessions/sessions.service.ts';
import type { SessionPrincipal } from '../sessions/sessions.repository.ts';

export async function signedInStaff(request: FastifyRequest, options: { write: boolean }): Promise<SessionPrincipal> {
  if (options.write) refuseCrossOrigin(request);
  const token = sessionToken(request);
  const principal = token ? await readSession(request.server.deps, token) : null;
  if (!principal) throw new AppError('UNAUTHENTICATED', 'Sign in first: this needs a staff session');
  return principal;
}

/**
 * A cookie-authenticated write from another origin is refused, as the guard does for the rest: the
 * Origin header, when sent, names PUBLIC_URL; Fetch Metadata, when sent, says same-origin.
 */
export function refuseCrossOrigin(request: FastifyRequest): void {
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  const own = new URL(request.server.deps.config.staff.origin).origin;
  const crossSite = typeof site === 'string' && site !== 'same-origin' && site !== 'none';
  if (crossSite || (typeof origin === 'string' && origin.toLowerCase() !== own)) {
    throw new AppError('CROSS_ORIGIN_REFUSED', 'This request came from another origin');
  }
}
