// Test data written straight to the database, and tokens for it.
import type { Database } from '../../src/platform/db/port.ts';
import type { TokenService } from '../../src/platform/auth/tokens.ts';
import type { Clock } from '../../src/platform/clock.ts';

export interface StoreRow {
  id: string;
  name: string;
  timezone: string;
  currency: string;
}

export interface MerchantTokenOptions {
  userId?: string | null;
  staffName?: string | null;
  scopes?: string[];
  entitlements?: string[];
  permissions?: string[];
  ttlS?: number;
}

export const ALL_ENTITLEMENTS = ['can_use_bookings', 'classes'];
export const ALL_PERMISSIONS = ['can_process_payments'];

export class Fixtures {
  private readonly db: Database;
  private readonly tokens: TokenService;
  private readonly clock: Clock;
  constructor(db: Database, tokens: TokenService, clock: Clock) {
    this.db = db;
    this.tokens = tokens;
    this.clock = clock;
  }

  async store(fields: Partial<Record<string, unknown>> = {}): Promise<StoreRow> {
    const row = {
      name: 'Test Salon',
      timezone: 'Europe/London',
      currency: 'GBP',
      walkin_mode: 'mixed',
      called_hold_minutes: 10,
      cancellation_window_min: 0,
      last_seating_offset_min: null,
      ...fields,
    };
    const res = await this.db.query<StoreRow>(
      `INSERT INTO stores (name, timezone, currency, walkin_mode, called_hold_minutes, cancellation_window_min, last_seating_offset_min)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id, name, timezone, currency`,
      [
        row.name,
        row.timezone,
        row.currency,
        row.walkin_mode,
        row.called_hold_minutes,
        row.cancellation_window_min,
        row.last_seating_offset_min,
      ],
    );
    return res.rows[0];
  }

  async unit(
    storeId: string,
    fields: Partial<Record<string, unknown>> = {},
  ): Promise<{ id: string; display_name: string }> {
    const row = { display_name: 'Chair 1', kind: 'staff', sort: 0, bookable: true, is_active: true, ...fields };
    const res = await this.db.query<{ id: string; display_name: string }>(
      `INSERT INTO units (store_id, display_name, kind, sort, bookable, is_active) VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING id, display_name`,
      [storeId, row.display_name, row.kind, row.sort, row.bookable, row.is_active],
    );
    return res.rows[0];
  }

  async service(storeId: string, fields: Partial<Record<string, unknown>> = {}): Promise<{ id: string }> {
    // party_min..party_max: the table's defaults (1..1) unless given.
    const row = {
      name: 'Haircut',
      duration_min: 45,
      price_pence: 3000,
      currency: 'GBP',
      party_min: 1,
      party_max: 1,
      ...fields,
    };
    const res = await this.db.query<{ id: string }>(
      `INSERT INTO services (store_id, name, duration_min, price_pence, currency, party_min, party_max) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [storeId, row.name, row.duration_min, row.price_pence, row.currency, row.party_min, row.party_max],
    );
    return res.rows[0];
  }

  async customer(
    fields: { name?: string | null; email?: string | null; phone?: string | null } = {},
  ): Promise<{ id: string }> {
    const res = await this.db.query<{ id: string }>(
      'INSERT INTO customers (name, email, phone) VALUES ($1, $2, $3) RETURNING id',
      [fields.name ?? 'Alex Example', fields.email ?? null, fields.phone ?? null],
    );
    return res.rows[0];
  }

  /** Gives the store a relationship with the customer (a membership row). */
  async membership(storeId: string, customerId: string): Promise<void> {
    const now = this.clock.now().toISOString();
    await this.db.query(
      `INSERT INTO store_customers (store_id, customer_id, is_member, member_since, first_seen_at, last_seen_at)
       VALUES ($1, $2, true, $3, $3, $3) ON CONFLICT DO NOTHING`,
      [storeId, customerId, now],
    );
  }

  /** A merchant token with every scope, entitlement and permission unless told otherwise. */
  async merchantToken(storeId: string, options: MerchantTokenOptions = {}): Promise<string> {
    const { token } = await this.tokens.sign(
      {
        kind: 'merchant',
        store_id: storeId,
        user_id: options.userId === undefined ? 'staff-1' : options.userId,
        staff_name: options.staffName === undefined ? 'Sam Staff' : options.staffName,
        scopes: options.scopes ?? ['merchant:read', 'merchant:write'],
        entitlements: options.entitlements ?? ALL_ENTITLEMENTS,
        permissions: options.permissions ?? ALL_PERMISSIONS,
      },
      options.ttlS ?? 3600,
      // Tokens are verified against real time by jose, so they are minted on the real clock.
      new Date(),
    );
    return token;
  }

  async customerToken(customerId: string, scopes?: string[], ttlS = 3600): Promise<string> {
    const { token } = await this.tokens.sign({ kind: 'customer', customer_id: customerId, scopes }, ttlS, new Date());
    return token;
  }
}
