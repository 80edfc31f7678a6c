// Who is calling. Built once per request by the auth guard from a verified token.

export const MERCHANT_SCOPES = ['merchant:read', 'merchant:write'] as const;
export const CUSTOMER_SCOPES = ['customer:read', 'customer:write'] as const;
export const ENTITLEMENTS = ['can_use_bookings', 'classes'] as const;
export const PERMISSIONS = ['can_process_payments'] as const;

export type MerchantScope = (typeof MERCHANT_SCOPES)[number];
export type CustomerScope = (typeof CUSTOMER_SCOPES)[number];
export type Entitlement = (typeof ENTITLEMENTS)[number];
export type Permission = (typeof PERMISSIONS)[number];

export interface MerchantActor {
  kind: 'merchant';
  storeId: string;
  userId: string | null;
  staffName: string | null;
  scopes: string[];
  entitlements: string[];
  permissions: string[];
}

export interface CustomerActor {
  kind: 'customer';
  customerId: string;
  scopes: string[];
}

export interface AdminActor {
  kind: 'admin';
}

/** A booking page visitor before sign-in: known only by the page session their browser holds. */
export interface GuestActor {
  kind: 'guest';
  sessionId: string;
}

export type Actor = MerchantActor | CustomerActor | AdminActor | GuestActor;

/** The identity idempotency records and rate limits are scoped to. */
export function principalOf(actor: Actor): string {
  switch (actor.kind) {
    case 'merchant':
      return `merchant:${actor.storeId}:${actor.userId ?? '-'}`;
    case 'customer':
      return `customer:${actor.customerId}`;
    case 'admin':
      return 'admin';
    case 'guest':
      return `guest:${actor.sessionId}`;
  }
}
