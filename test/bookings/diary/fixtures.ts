// Rows for the diary, search and time-off tests, written straight to the database (the shape of
// test/platform/migrations.test.ts), so these tests do not depend on the appointment endpoints.
import type { Database } from '../../../src/platform/db/port.ts';

export interface AppointmentFixture {
  storeId: string;
  unitId: string;
  startsAt: string;
  endsAt: string;
  status?: string;
  customerId?: string | null;
  guestName?: string | null;
  guestEmail?: string | null;
  guestPhone?: string | null;
  pricePence?: number;
  depositPence?: number;
  settledPence?: number;
  paymentStatus?: string;
  currency?: string;
  isOverride?: boolean;
  preferredAreaId?: string | null;
  checkedInAt?: string | null;
  completedAt?: string | null;
  cancelledAt?: string | null;
}

export async function insertAppointment(db: Database, a: AppointmentFixture): Promise<string> {
  const res = await db.query<{ id: string }>(
    `INSERT INTO appointments (store_id, unit_id, starts_at, ends_at, block, status, customer_id, guest_name, guest_email,
       guest_phone, price_pence, deposit_pence, settled_pence, payment_status, currency, is_override, preferred_area_id,
       checked_in_at, completed_at, cancelled_at)
     VALUES ($1, $2, $3, $4, tstzrange($3::timestamptz, $4::timestamptz), $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
       $17, $18, $19)
     RETURNING id`,
    [
      a.storeId,
      a.unitId,
      a.startsAt,
      a.endsAt,
      a.status ?? 'confirmed',
      a.customerId ?? null,
      a.guestName ?? null,
      a.guestEmail ?? null,
      a.guestPhone ?? null,
      a.pricePence ?? 0,
      a.depositPence ?? 0,
      a.settledPence ?? 0,
      a.paymentStatus ?? 'none',
      a.currency ?? 'GBP',
      a.isOverride ?? false,
      a.preferredAreaId ?? null,
      a.checkedInAt ?? null,
      a.completedAt ?? null,
      a.cancelledAt ?? null,
    ],
  );
  return res.rows[0].id;
}

export async function insertHold(
  db: Database,
  h: {
    storeId: string;
    unitId: string;
    startsAt: string;
    endsAt: string;
    expiresAt?: string | null;
    releasedAt?: string | null;
  },
): Promise<string> {
  const res = await db.query<{ id: string }>(
    `INSERT INTO holds (store_id, unit_id, starts_at, ends_at, expires_at, released_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [h.storeId, h.unitId, h.startsAt, h.endsAt, h.expiresAt ?? null, h.releasedAt ?? null],
  );
  return res.rows[0].id;
}

export async function insertTimeOff(
  db: Database,
  t: { storeId: string; unitId: string; startsAt: string; endsAt: string; kind?: string; reason?: string | null },
): Promise<string> {
  const res = await db.query<{ id: string }>(
    `INSERT INTO time_off (store_id, unit_id, starts_at, ends_at, kind, reason) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [t.storeId, t.unitId, t.startsAt, t.endsAt, t.kind ?? 'time_off', t.reason ?? null],
  );
  return res.rows[0].id;
}

export async function insertArea(db: Database, storeId: string, name: string): Promise<string> {
  const res = await db.query<{ id: string }>('INSERT INTO areas (store_id, name) VALUES ($1, $2) RETURNING id', [
    storeId,
    name,
  ]);
  return res.rows[0].id;
}

export async function auditActions(db: Database, entityId: string): Promise<string[]> {
  const res = await db.query<{ action: string }>(
    'SELECT action FROM audit_log WHERE entity_id = $1 ORDER BY created_at, id',
    [entityId],
  );
  return res.rows.map((r) => r.action);
}
