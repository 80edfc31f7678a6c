// What a booking page service acts with (the house pattern: services take ctx, routes stay thin):
// the page's shared parts, and the caller as the request knows them, taken by the route in one place
// (pageContext). The services never see the request: the caller's address (request.ip, the socket's or
// the forwarded one through a TRUST_PROXY proxy), the bearer token's actor, and a request context for
// the actor the service decides on (the guest's page session, the manage link's customer).
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../platform/auth/actor.ts';
import type { RequestContext } from '../platform/context.ts';
import type { PageDeps } from './page-deps.ts';

/** Enough to read an enabled page (the server-rendered HTML has no request to speak of). */
export interface PageReadContext {
  readonly page: PageDeps;
}

export interface PageContext extends PageReadContext {
  /** The caller's address, for the per-address limits. */
  readonly ip: string;
  /** The actor of the bearer token that came, if any (the customer's, to confirm). */
  readonly actor: Actor | null;
  /** The request's context acting as the actor the service chose. */
  as<A extends Actor>(actor: A): RequestContext<A>;
}

export function pageContext(request: FastifyRequest, page: PageDeps): PageContext {
  return { page, ip: request.ip, actor: request.actor ?? null, as: (actor) => request.context(actor) };
}

/** The page's reads outside a request (the HTML route). */
export const pageReads = (page: PageDeps): PageReadContext => ({ page });
