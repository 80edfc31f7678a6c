// Test data written straight to a proof's own database, and the tokens to act on it.
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Queryable } from '../src/platform/db/port.ts';
import { AUTH_SECRET } from './env.ts';

export async function insertStore(
  db: Queryable,
  name = 'Reliability Salon',
  fields: { cancellation_window_min?: number } = {},
): Promise<string> {
  const res = await db.query<{ id: string }>(
    `INSERT INTO stores (name, timezone, currency, walkin_mode, called_hold_minutes, cancellation_window_min)
     VALUES ($1, 'Europe/London', 'GBP', 'mixed', 10, $2) RETURNING id`,
    [name, fields.cancellation_window_min ?? 0],
  );
  return res.rows[0].id;
}

export async function insertUnits(db: Queryable, storeId: string, count: number, prefix = 'Chair'): Promise<string[]> {
  const res = await db.query<{ id: string }>(
    `INSERT INTO units (store_id, display_name, kind, sort)
     SELECT $1, $2 || ' ' || g, 'staff', g FROM generate_series(1, $3::int) AS g RETURNING id`,
    [storeId, prefix, count],
  );
  return res.rows.map((r) => r.id);
}

export async function insertService(
  db: Queryable,
  storeId: string,
  name = 'Haircut',
  pricePence = 3000,
  durationMin = 30,
): Promise<string> {
  const res = await db.query<{ id: string }>(
    `INSERT INTO services (store_id, name, duration_min, price_pence, currency) VALUES ($1, $2, $3, $4, 'GBP') RETURNING id`,
    [storeId, name, durationMin, pricePence],
  );
  return res.rows[0].id;
}

/** A customer with a membership row at the store (a relationship), carrying a private note. */
export async function insertMember(
  db: Queryable,
  storeId: string,
  name: string,
  note: string | null = null,
): Promise<string> {
  const tag = randomUUID().slice(0, 8);
  const res = await db.query<{ id: string }>(
    'INSERT INTO customers (name, email, phone) VALUES ($1, $2, $3) RETURNING id',
    [
      name,
      `${name.toLowerCase().replace(/[^a-z]/g, '')}.${tag}@example.com`,
      `+4477${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
    ],
  );
  const id = res.rows[0].id;
  await db.query(
    `INSERT INTO store_customers (store_id, customer_id, is_member, member_since, first_seen_at, last_seen_at, merchant_note)
     VALUES ($1, $2, true, now(), now(), now(), $3)`,
    [storeId, id, note],
  );
  return id;
}

export async function insertQueueEntry(
  db: Queryable,
  storeId: string,
  name: string,
  joinedAt = new Date(),
): Promise<string> {
  const res = await db.query<{ id: string }>(
    `INSERT INTO queue_entries (store_id, guest_name, party_size, status, joined_at) VALUES ($1, $2, 1, 'waiting', $3) RETURNING id`,
    [storeId, name, joinedAt.toISOString()],
  );
  return res.rows[0].id;
}

/** An appointment written directly (confirmed, a guest), for moves and settlements to act on. */
export async function insertAppointment(
  db: Queryable,
  a: { storeId: string; unitId: string; startsAt: Date; minutes: number; pricePence?: number; guest?: string },
): Promise<string> {
  const ends = new Date(a.startsAt.getTime() + a.minutes * 60_000);
  const res = await db.query<{ id: string }>(
    `INSERT INTO appointments (store_id, unit_id, starts_at, ends_at, block, status, price_pence, currency, guest_name, guest_email)
     VALUES ($1, $2, $3, $4, tstzrange($3::timestamptz, $4::timestamptz), 'confirmed', $5, 'GBP', $6, 'guest@example.com') RETURNING id`,
    [a.storeId, a.unitId, a.startsAt.toISOString(), ends.toISOString(), a.pricePence ?? 0, a.guest ?? 'Seeded Guest'],
  );
  return res.rows[0].id;
}

// Tokens: the same claims the service's token service issues (docs/decisions/platform.md, Tokens).
const secret = new TextEncoder().encode(AUTH_SECRET);
const wrongSecret = new TextEncoder().encode('not-the-secret-0123456789-0123456789-abcdef');

export interface MerchantTokenOptions {
  userId?: string;
  scopes?: string[];
  entitlements?: string[];
  permissions?: string[];
  ttlS?: number;
  badSignature?: boolean;
}

export async function merchantToken(storeId: string, o: MerchantTokenOptions = {}): Promise<string> {
  return sign(
    {
      kind: 'merchant',
      store_id: storeId,
      name: 'Reliability Staff',
      scope: (o.scopes ?? ['merchant:read', 'merchant:write']).join(' '),
      entitlements: o.entitlements ?? ['can_use_bookings', 'classes'],
      permissions: o.permissions ?? ['can_process_payments'],
    },
    o.userId ?? 'staff-rel',
    o.ttlS ?? 3600,
    o.badSignature ?? false,
  );
}

export async function customerToken(
  customerId: string,
  o: { scopes?: string[]; ttlS?: number; badSignature?: boolean } = {},
): Promise<string> {
  return sign(
    { kind: 'customer', scope: (o.scopes ?? ['customer:read', 'customer:write']).join(' ') },
    customerId,
    o.ttlS ?? 3600,
    o.badSignature ?? false,
  );
}

async function sign(claims: Record<string, unknown>, subject: string, ttlS: number, bad: boolean): Promise<string> {
  const iat = Math.floor(Date.now() / 1000) + (ttlS < 0 ? ttlS - 60 : 0);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('bookings-back-office')
    .setAudience('bookings-api')
    .setSubject(subject)
    .setIssuedAt(iat)
    .setExpirationTime(ttlS < 0 ? Math.floor(Date.now() / 1000) + ttlS : iat + ttlS)
    .sign(bad ? wrongSecret : secret);
}
