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

/** A cookie-authenticated write from another origin is refused (Origin, else Fetch Metadata). */
export function refuseCrossOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  const own = request.server.deps.config.staff.origin;
  if (typeof origin === 'string' && origin !== 'null' && new URL(own).origin !== origin.toLowerCase()) {
    throw new AppError('CROSS_ORIGIN_REFUSED', 'This request came from another origin');
  }
  if (origin === 'null' || request.headers['sec-fetch-site'] === 'cross-site') {
    throw new AppError('CROSS_ORIGIN_REFUSED', 'This request came from another origin');
  }
}
