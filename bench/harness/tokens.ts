// Real bearer tokens for the load: HS256 JWTs signed with the AUTH_SECRET the server was started
// with, carrying the claims src/platform/auth/tokens.ts verifies. Minted once, reused per principal.
import { SignJWT } from 'jose';

export const ISSUER = 'bookings-back-office';
export const AUDIENCE = 'bookings-api';
const TTL_S = 6 * 3600;

export class TokenMint {
  private readonly secret: Uint8Array;
  private readonly cache = new Map<string, string>();
  constructor(secret: string) {
    this.secret = new TextEncoder().encode(secret);
  }

  private async sign(payload: Record<string, unknown>, subject: string): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(subject)
      .setIssuedAt(now)
      .setExpirationTime(now + TTL_S)
      .sign(this.secret);
  }

  /** A staff member of the store with every scope, entitlement and permission the scenarios need. */
  async merchant(storeId: string): Promise<string> {
    const key = `m:${storeId}`;
    let token = this.cache.get(key);
    if (!token) {
      token = await this.sign(
        {
          kind: 'merchant',
          store_id: storeId,
          name: 'Bench Staff',
          scope: 'merchant:read merchant:write',
          entitlements: ['can_use_bookings', 'classes'],
          permissions: ['can_process_payments'],
        },
        'bench-staff',
      );
      this.cache.set(key, token);
    }
    return token;
  }

  async customer(customerId: string): Promise<string> {
    const key = `c:${customerId}`;
    let token = this.cache.get(key);
    if (!token) {
      token = await this.sign({ kind: 'customer', scope: 'customer:read customer:write' }, customerId);
      this.cache.set(key, token);
    }
    return token;
  }

  /** Synchronous lookup for the hot path (autocannon's setupRequest); mint first. */
  get(kind: 'm' | 'c', id: string): string {
    const token = this.cache.get(`${kind}:${id}`);
    if (!token) throw new Error(`no token minted for ${kind}:${id}`);
    return token;
  }
}
