// SQL of the operator surface.
import type { Static } from 'typebox';
import type { Queryable } from '../platform/db/port.ts';
import type { AdminCustomer, Store } from './admin.schemas.ts';

type StoreRow = Static<typeof Store>;
type CustomerRow = Static<typeof AdminCustomer>;

export const STORE_COLUMNS = `id, name, timezone, currency, walkin_mode, called_hold_minutes, cancellation_window_min, last_seating_offset_min,
   slot_step_min, min_notice_min, booking_horizon_days, hold_minutes, deposit_due_minutes, reminder_lead_hours, cors_origins,
   booking_page_slug, booking_page_enabled, address, phone, website, about, created_at`;
const CUSTOMER_COLUMNS = 'id, name, email, phone, erased_at, created_at';
const STORE_WRITABLE = [
  'name',
  'timezone',
  'currency',
  'walkin_mode',
  'called_hold_minutes',
  'cancellation_window_min',
  'last_seating_offset_min',
  'slot_step_min',
  'min_notice_min',
  'booking_horizon_days',
  'hold_minutes',
  'deposit_due_minutes',
  'reminder_lead_hours',
  'cors_origins',
  'booking_page_slug',
  'booking_page_enabled',
  'address',
  'phone',
  'website',
  'about',
];

export async function insertStore(q: Queryable, fields: Record<string, unknown>, now: string): Promise<StoreRow> {
  const cols = STORE_WRITABLE.filter((c) => fields[c] !== undefined);
  const values = cols.map((c) => fields[c]);
  const res = await q.query<StoreRow>(
    `INSERT INTO stores (${[...cols, 'created_at', 'updated_at'].join(', ')})
     VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}${cols.length ? ', ' : ''}$${cols.length + 1}, $${cols.length + 1})
     RETURNING ${STORE_COLUMNS}`,
    [...values, now],
  );
  return res.rows[0];
}

export async function updateStore(
  q: Queryable,
  storeId: string,
  fields: Record<string, unknown>,
  now: string,
): Promise<StoreRow | null> {
  const cols = STORE_WRITABLE.filter((c) => fields[c] !== undefined);
  const res = await q.query<StoreRow>(
    `UPDATE stores SET ${cols.map((c, i) => `${c} = $${i + 2}`).join(', ')}, updated_at = $${cols.length + 2}
      WHERE id = $1 RETURNING ${STORE_COLUMNS}`,
    [storeId, ...cols.map((c) => fields[c]), now],
  );
  return res.rows[0] ?? null;
}

export async function storeExists(q: Queryable, storeId: string, lock = false): Promise<boolean> {
  const res = await q.query(`SELECT 1 FROM stores WHERE id = $1 ${lock ? 'FOR SHARE' : ''}`, [storeId]);
  return res.rowCount > 0;
}

export async function insertCustomer(
  q: Queryable,
  c: { name: string | null; email: string | null; phone: string | null },
  now: string,
): Promise<CustomerRow> {
  const res = await q.query<CustomerRow>(
    `INSERT INTO customers (name, email, phone, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING ${CUSTOMER_COLUMNS}`,
    [c.name, c.email, c.phone, now],
  );
  return res.rows[0];
}

export async function findCustomer(q: Queryable, customerId: string, lock = false): Promise<CustomerRow | null> {
  const res = await q.query<CustomerRow>(
    `SELECT ${CUSTOMER_COLUMNS} FROM customers WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`,
    [customerId],
  );
  return res.rows[0] ?? null;
}

export async function upsertMembership(q: Queryable, storeId: string, customerId: string, now: string) {
  // xmax = 0 on the returned row means the INSERT path ran: the membership is new.
  const res = await q.query(
    `INSERT INTO store_customers (store_id, customer_id, is_member, member_since, first_seen_at, last_seen_at, updated_at)
     VALUES ($1, $2, true, $3, $3, $3, $3)
     ON CONFLICT (store_id, customer_id) DO UPDATE
       SET is_member = true,
           member_since = COALESCE(store_customers.member_since, EXCLUDED.member_since),
           updated_at = EXCLUDED.updated_at
     RETURNING store_id, customer_id, is_member, member_since, first_seen_at, (xmax = 0) AS inserted,
               (SELECT is_member FROM store_customers s WHERE s.store_id = $1 AND s.customer_id = $2) AS was_member`,
    [storeId, customerId, now],
  );
  return res.rows[0];
}

/**
 * Erasure under data-protection law: the identity goes (name, email, phone, private notes, guest
 * details on their bookings and queue entries, saved preferences); financial rows stay.
 */
/** The stores that know the customer (their relationship rows). */
export async function customerStores(q: Queryable, customerId: string): Promise<string[]> {
  const res = await q.query<{ store_id: string }>(
    'SELECT store_id FROM store_customers WHERE customer_id = $1 ORDER BY store_id',
    [customerId],
  );
  return res.rows.map((r) => r.store_id);
}

export async function eraseCustomer(
  q: Queryable,
  customer: { id: string; email: string | null; phone: string | null },
  now: string,
) {
  const customerId = customer.id;
  await q.query(
    'UPDATE customers SET name = NULL, email = NULL, phone = NULL, erased_at = $2, updated_at = $2 WHERE id = $1',
    [customerId, now],
  );
  // Their bookings, including guest bookings made under their email before they had an account.
  await q.query(
    `UPDATE appointments SET guest_name = NULL, guest_email = NULL, guest_phone = NULL
      WHERE customer_id = $1 OR ($2::text IS NOT NULL AND lower(guest_email) = $2)`,
    [customerId, customer.email],
  );
  await q.query(
    `UPDATE queue_entries SET guest_name = NULL, guest_phone = NULL
      WHERE customer_id = $1 OR ($2::text IS NOT NULL AND guest_phone = $2)`,
    [customerId, customer.phone],
  );
  await q.query('UPDATE store_customers SET merchant_note = NULL, block_reason = NULL WHERE customer_id = $1', [
    customerId,
  ]);
  await q.query('DELETE FROM notification_preferences WHERE customer_id = $1', [customerId]);
  // Their messages keep what was sent and why, not where to: anything still to go is refused by the gate.
  await q.query(
    `UPDATE messages SET to_address = ''
      WHERE customer_id = $1 OR (customer_id IS NULL AND to_address IN (coalesce($2::text, ''), coalesce($3::text, '')))`,
    [customerId, customer.email, customer.phone],
  );
}

/** What already occupies the unit in that range: a live appointment or an unexpired hold. */
export async function occupiedBy(
  q: Queryable,
  storeId: string,
  unitId: string,
  start: string,
  end: string,
  now: string,
): Promise<string | null> {
  const res = await q.query<{ what: string }>(
    `SELECT 'appointment' AS what FROM appointments
      WHERE store_id = $1 AND unit_id = $2 AND bbo_occupies(status, is_override)
        AND block && tstzrange($3::timestamptz, $4::timestamptz)
     UNION ALL
     SELECT 'hold' FROM holds
      WHERE store_id = $1 AND unit_id = $2 AND released_at IS NULL AND (expires_at IS NULL OR expires_at > $5)
        AND tstzrange(starts_at, ends_at) && tstzrange($3::timestamptz, $4::timestamptz)
     LIMIT 1`,
    [storeId, unitId, start, end, now],
  );
  return res.rows[0]?.what ?? null;
}
