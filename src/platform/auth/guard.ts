// One declarative guard per route: each route states in config.auth who may call it.
// A route that states nothing is refused at registration, so nothing is public by accident.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';
import type { Actor, Entitlement, MerchantActor, Permission } from './actor.ts';
import { InvalidToken, type TokenService } from './tokens.ts';

export type AuthRule =
  | { kind: 'public' }
  | { kind: 'admin' }
  | {
      kind: 'merchant';
      scope: 'merchant:read' | 'merchant:write';
      entitlements?: Entitlement[];
      permissions?: Permission[];
    }
  | { kind: 'customer'; scope: 'customer:read' | 'customer:write' }
  // Either token kind, each needing its own scope (the availability search answers both views; a
  // class offer is accepted by the shop for the customer or by the customer); a merchant's
  // entitlements are checked as a merchant rule checks them.
  | {
      kind: 'merchant_or_customer';
      merchantScope: 'merchant:read' | 'merchant:write';
      customerScope: 'customer:read' | 'customer:write';
      entitlements?: Entitlement[];
    }
  // A fixed secret of the operator's (METRICS_TOKEN), compared in constant time; no token service.
  | { kind: 'static_token'; token: string };

export const auth = {
  public: (): AuthRule => ({ kind: 'public' }),
  admin: (): AuthRule => ({ kind: 'admin' }),
  merchantRead: (extra: { entitlements?: Entitlement[]; permissions?: Permission[] } = {}): AuthRule => ({
    kind: 'merchant',
    scope: 'merchant:read',
    ...extra,
  }),
  merchantWrite: (extra: { entitlements?: Entitlement[]; permissions?: Permission[] } = {}): AuthRule => ({
    kind: 'merchant',
    scope: 'merchant:write',
    ...extra,
  }),
  customerRead: (): AuthRule => ({ kind: 'customer', scope: 'customer:read' }),
  customerWrite: (): AuthRule => ({ kind: 'customer', scope: 'customer:write' }),
  merchantOrCustomerRead: (): AuthRule => ({
    kind: 'merchant_or_customer',
    merchantScope: 'merchant:read',
    customerScope: 'customer:read',
  }),
  merchantOrCustomerWrite: (extra: { entitlements?: Entitlement[] } = {}): AuthRule => ({
    kind: 'merchant_or_customer',
    merchantScope: 'merchant:write',
    customerScope: 'customer:write',
    ...extra,
  }),
  staticToken: (token: string): AuthRule => ({ kind: 'static_token', token }),
};

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRule;
  }
  interface FastifyRequest {
    actor: Actor | null;
  }
}

/**
 * Other ways a merchant is known besides a JWT: a staff session cookie and a store API key, with the
 * role table that limits them. Supplied by the composition root (app.ts); the platform never
 * imports the feature that implements it. Bearer JWTs are never passed to it: they act exactly as
 * their scopes, entitlements and permissions say.
 */
export interface MerchantCredentials {
  /** Whether a bearer text is this kind's (an API key's recognisable prefix) rather than a JWT. */
  isApiKey(token: string): boolean;
  /** The actor for an API key; throws UNAUTHENTICATED for an unknown or revoked key. */
  apiKey(token: string, request: FastifyRequest): Promise<MerchantActor>;
  /** The actor for the request's session cookie; null when it carries none; throws UNAUTHENTICATED for an ended one. */
  session(request: FastifyRequest): Promise<MerchantActor | null>;
  /** Whether the operation has an entry in the role table (a merchant route without one fails at start). */
  declares(operationId: string): boolean;
  /** Throws ROLE_FORBIDDEN when the actor's role may not call the operation (before the body is read). */
  authorize(request: FastifyRequest, actor: MerchantActor): void;
  /** Throws ROLE_FORBIDDEN when the actor may not touch the record the validated request names. */
  authorizeRecord(request: FastifyRequest, actor: MerchantActor): Promise<void>;
}

function bearer(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw new AppError('UNAUTHENTICATED', 'Authorization: Bearer <token> is required');
  const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/.exec(header.trim());
  if (!match) throw new AppError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <token>"');
  return match[1];
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

// merchant:write includes merchant:read (and customer:write includes customer:read).
function hasScope(scopes: string[], needed: string): boolean {
  if (scopes.includes(needed)) return true;
  return needed.endsWith(':read') && scopes.includes(needed.replace(':read', ':write'));
}

export function registerAuthGuard(
  app: FastifyInstance,
  tokens: TokenService,
  adminToken: string | null,
  credentials: MerchantCredentials | null = null,
) {
  app.decorateRequest('actor', null);

  app.addHook('onRoute', (route) => {
    // The CORS preflight route of @fastify/cors (OPTIONS *): browsers send no token on a preflight,
    // and the plugin answers it in its hook, before any handler (see src/bookings/online/cors.ts).
    const corsPreflight = route.method === 'OPTIONS' && route.url.endsWith('*');
    if (!route.config?.auth && !route.url.startsWith('/docs') && !corsPreflight) {
      throw new Error(`Route ${route.method} ${route.url} declares no auth rule`);
    }
    // Every merchant operation says which staff roles may call it (src/staff/roles.ts); a route
    // without an operationId (a test's probe) has no entry, so no staff role may call it.
    const kind = route.config?.auth?.kind;
    const operationId = (route.schema as { operationId?: string } | undefined)?.operationId;
    if (
      credentials &&
      (kind === 'merchant' || kind === 'merchant_or_customer') &&
      operationId &&
      !credentials.declares(operationId)
    ) {
      throw new Error(`Route ${route.method} ${route.url} (${operationId}) has no entry in the role table`);
    }
  });

  /** The merchant behind a session cookie or an API key, when the request carries one; else null. */
  async function staffActor(request: FastifyRequest): Promise<MerchantActor | null> {
    if (!credentials) return null;
    const header = request.headers.authorization;
    if (header) {
      const token = bearer(request);
      return credentials.isApiKey(token) ? credentials.apiKey(token, request) : null;
    }
    return credentials.session(request);
  }

  async function verify(token: string) {
    try {
      return await tokens.verify(token);
    } catch (err) {
      if (err instanceof InvalidToken) throw new AppError('UNAUTHENTICATED', 'The token is invalid or expired');
      throw err;
    }
  }

  app.addHook('onRequest', async (request) => {
    const rule = request.routeOptions.config?.auth;
    if (!rule || rule.kind === 'public') return;

    if (rule.kind === 'static_token') {
      if (!sameSecret(bearer(request), rule.token))
        throw new AppError('UNAUTHENTICATED', 'The token is not the one this route needs');
      return;
    }

    if (rule.kind === 'admin') {
      if (!adminToken) throw new AppError('ADMIN_DISABLED', 'The operator surface is disabled');
      const token = bearer(request);
      if (sameSecret(token, adminToken)) {
        request.actor = { kind: 'admin' };
        return;
      }
      await verify(token);
      throw new AppError('WRONG_TOKEN_KIND', 'The operator surface needs the admin token');
    }

    const actor = (await staffActor(request)) ?? (await verify(bearer(request)));
    if (rule.kind === 'merchant_or_customer') {
      const scope =
        actor.kind === 'merchant' ? rule.merchantScope : actor.kind === 'customer' ? rule.customerScope : null;
      if (!scope) throw new AppError('WRONG_TOKEN_KIND', 'This operation needs a merchant or customer token');
      if (!hasScope(actor.scopes, scope))
        throw new AppError('INSUFFICIENT_SCOPE', `This operation needs the scope ${scope}`);
      const entitlement =
        actor.kind === 'merchant' ? rule.entitlements?.find((e) => !actor.entitlements.includes(e)) : undefined;
      if (entitlement) throw new AppError('MISSING_ENTITLEMENT', `The store needs the ${entitlement} entitlement`);
      if (actor.kind === 'merchant' && actor.staff) credentials?.authorize(request, actor);
      request.actor = actor;
      return;
    }
    if (actor.kind !== rule.kind) {
      throw new AppError('WRONG_TOKEN_KIND', `This operation needs a ${rule.kind} token`);
    }
    if (!hasScope(actor.scopes, rule.scope)) {
      throw new AppError('INSUFFICIENT_SCOPE', `This operation needs the scope ${rule.scope}`);
    }
    if (rule.kind === 'merchant' && actor.kind === 'merchant') {
      const entitlement = rule.entitlements?.find((e) => !actor.entitlements.includes(e));
      if (entitlement) throw new AppError('MISSING_ENTITLEMENT', `The store needs the ${entitlement} entitlement`);
      const permission = rule.permissions?.find((p) => !actor.permissions.includes(p));
      if (permission) throw new AppError('MISSING_PERMISSION', `The staff member needs the ${permission} permission`);
      if (actor.staff) credentials?.authorize(request, actor);
    }
    request.actor = actor;
  });

  // After validation: the role table's record-level rules (a `staff` member's own unit and customers).
  if (credentials) {
    app.addHook('preHandler', async (request) => {
      const actor = request.actor;
      if (actor?.kind === 'merchant' && actor.staff) await credentials.authorizeRecord(request, actor);
    });
  }
}
