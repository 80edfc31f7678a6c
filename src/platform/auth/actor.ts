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
  /** Set when the caller signed in as a staff member (session cookie) or sent a store API key. */
  staff?: StaffIdentity;
}

/** A merchant actor that is a person with a role, or an API key: what the role table checks. */
export interface StaffIdentity {
  via: 'session' | 'api_key';
  /** The staff member's id, or the API key's. */
  id: string;
  /** The member's role at the store; null for an API key (it acts as its scopes allow, see src/staff/roles.ts). */
  role: 'owner' | 'manager' | 'front_desk' | 'staff' | null;
  /** The unit a `staff` member works on. */
  unitId: string | null;
  /** The session (for sign-out and the sessions list). */
  sessionId: string | null;
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
