// Bearer tokens: JWTs verified with jose, against the shared secret (HS256) or a JWKS URL.
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { CustomerActor, MerchantActor } from './actor.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface MerchantClaims {
  kind: 'merchant';
  store_id: string;
  user_id?: string | null;
  staff_name?: string | null;
  scopes?: string[];
  entitlements?: string[];
  permissions?: string[];
}

export interface CustomerClaims {
  kind: 'customer';
  customer_id: string;
  scopes?: string[];
}

export type TokenClaims = MerchantClaims | CustomerClaims;

export interface TokenService {
  sign(claims: TokenClaims, ttlSeconds: number, now?: Date): Promise<{ token: string; expiresAt: string }>;
  verify(token: string): Promise<MerchantActor | CustomerActor>;
}

export class InvalidToken extends Error {}

const stringArray = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.filter((x): x is string => typeof x === 'string')
    : typeof v === 'string'
      ? v.split(' ').filter(Boolean)
      : [];

function toActor(payload: JWTPayload): MerchantActor | CustomerActor {
  const kind = payload.kind;
  if (kind === 'merchant') {
    const storeId = payload.store_id;
    if (typeof storeId !== 'string' || !UUID.test(storeId)) throw new InvalidToken('merchant token without a store');
    return {
      kind: 'merchant',
      storeId: storeId.toLowerCase(),
      userId: typeof payload.sub === 'string' ? payload.sub : null,
      staffName: typeof payload.name === 'string' ? payload.name : null,
      scopes: stringArray(payload.scope ?? payload.scopes),
      entitlements: stringArray(payload.entitlements),
      permissions: stringArray(payload.permissions),
    };
  }
  if (kind === 'customer') {
    const customerId = payload.sub;
    if (typeof customerId !== 'string' || !UUID.test(customerId))
      throw new InvalidToken('customer token without a customer');
    return {
      kind: 'customer',
      customerId: customerId.toLowerCase(),
      scopes: stringArray(payload.scope ?? payload.scopes),
    };
  }
  throw new InvalidToken('unknown token kind');
}

// Verifying a signature costs about as much as a whole simple request; a token already verified is
// remembered (by its exact text) until it expires, in a bounded map evicting the oldest entries.
const CACHE_LIMIT = 10_000;

function verifiedCache() {
  const entries = new Map<string, { actor: MerchantActor | CustomerActor; expMs: number }>();
  return {
    get(token: string, nowMs: number) {
      const hit = entries.get(token);
      if (!hit) return undefined;
      if (hit.expMs <= nowMs) {
        entries.delete(token);
        return undefined;
      }
      return hit.actor;
    },
    set(token: string, actor: MerchantActor | CustomerActor, expMs: number) {
      if (entries.size >= CACHE_LIMIT) entries.delete(entries.keys().next().value!);
      entries.set(token, { actor, expMs });
    },
  };
}

/** The settings tokens need (a part of config.ts's Config, which is passed whole). */
export interface TokenSettings {
  readonly authSecret: string;
  readonly authJwksUrl: string | null;
  readonly authIssuer: string;
  readonly authAudience: string;
}

export function createTokenService(config: TokenSettings): TokenService {
  const cache = verifiedCache();
  const secret = new TextEncoder().encode(config.authSecret);
  const jwks = config.authJwksUrl ? createRemoteJWKSet(new URL(config.authJwksUrl)) : null;
  const verifyOptions = { issuer: config.authIssuer, audience: config.authAudience, clockTolerance: 5 };

  return {
    async sign(claims, ttlSeconds, now = new Date()) {
      const iat = Math.floor(now.getTime() / 1000);
      const exp = iat + ttlSeconds;
      const body: JWTPayload =
        claims.kind === 'merchant'
          ? {
              kind: 'merchant',
              store_id: claims.store_id,
              ...(claims.staff_name ? { name: claims.staff_name } : {}),
              scope: (claims.scopes ?? ['merchant:read', 'merchant:write']).join(' '),
              entitlements: claims.entitlements ?? [],
              permissions: claims.permissions ?? [],
            }
          : { kind: 'customer', scope: (claims.scopes ?? ['customer:read', 'customer:write']).join(' ') };
      const subject = claims.kind === 'merchant' ? (claims.user_id ?? undefined) : claims.customer_id;
      let jwt = new SignJWT(body)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(config.authIssuer)
        .setAudience(config.authAudience)
        .setIssuedAt(iat)
        .setExpirationTime(exp);
      if (subject) jwt = jwt.setSubject(subject);
      return { token: await jwt.sign(secret), expiresAt: new Date(exp * 1000).toISOString() };
    },

    async verify(token) {
      const cached = cache.get(token, Date.now());
      if (cached) return cached;
      try {
        // Tokens minted here are HS256; anything else comes from the external identity provider.
        const external = jwks !== null && decodeProtectedHeader(token).alg !== 'HS256';
        const { payload } = external
          ? await jwtVerify(token, jwks, verifyOptions)
          : await jwtVerify(token, secret, { ...verifyOptions, algorithms: ['HS256'] });
        const actor = toActor(payload);
        // Tokens without an expiry are never remembered: they must be checked every time.
        if (typeof payload.exp === 'number') cache.set(token, actor, payload.exp * 1000);
        return actor;
      } catch (err) {
        if (err instanceof InvalidToken) throw err;
        throw new InvalidToken((err as Error).message);
      }
    },
  };
}
