// One declarative guard per route: each route states in config.auth who may call it.
// A route that states nothing is refused at registration, so nothing is public by accident.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';
import type { Actor, Entitlement, Permission } from './actor.ts';
import { InvalidToken, type TokenService } from './tokens.ts';

export type AuthRule =
  | { kind: 'public' }
  | { kind: 'admin' }
  | { kind: 'merchant'; scope: 'merchant:read' | 'merchant:write'; entitlements?: Entitlement[]; permissions?: Permission[] }
  | { kind: 'customer'; scope: 'customer:read' | 'customer:write' }
  // Either token kind, each needing its own scope (the availability search answers both views).
  | { kind: 'merchant_or_customer'; merchantScope: 'merchant:read'; customerScope: 'customer:read' }
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
  merchantOrCustomerRead: (): AuthRule => ({ kind: 'merchant_or_customer', merchantScope: 'merchant:read', customerScope: 'customer:read' }),
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

export function registerAuthGuard(app: FastifyInstance, tokens: TokenService, adminToken: string | null) {
  app.decorateRequest('actor', null);

  app.addHook('onRoute', (route) => {
    // The CORS preflight route of @fastify/cors (OPTIONS *): browsers send no token on a preflight,
    // and the plugin answers it in its hook, before any handler (see src/bookings/online/cors.ts).
    const corsPreflight = route.method === 'OPTIONS' && route.url.endsWith('*');
    if (!route.config?.auth && !route.url.startsWith('/docs') && !corsPreflight) {
      throw new Error(`Route ${route.method} ${route.url} declares no auth rule`);
    }
  });

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
      if (!sameSecret(bearer(request), rule.token)) throw new AppError('UNAUTHENTICATED', 'The token is not the one this route needs');
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

    const actor = await verify(bearer(request));
    if (rule.kind === 'merchant_or_customer') {
      const scope = actor.kind === 'merchant' ? rule.merchantScope : actor.kind === 'customer' ? rule.customerScope : null;
      if (!scope) throw new AppError('WRONG_TOKEN_KIND', 'This operation needs a merchant or customer token');
      if (!hasScope(actor.scopes, scope)) throw new AppError('INSUFFICIENT_SCOPE', `This operation needs the scope ${scope}`);
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
    }
    request.actor = actor;
  });
}
