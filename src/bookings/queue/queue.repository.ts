// SQL of the walk-in queue. Every query is scoped to the acting store.
import type { Queryable, Tx } from '../../platform/db/port.ts';

export interface StoreQueueSettings {
  id: string;
  currency: string;
  walkin_mode: 'appointments_only' | 'walk_ins_only' | 'mixed' | null;
  called_hold_minutes: number | null;
}

export interface EntryRow {
  entry_id: string;
  store_id: string;
  customer_id: string | null;
  guest_name: string | null;
  guest_phone: string | null;
  service_id: string | null;
  preferred_unit_id: string | null;
  party_size: number;
  status: string;
  joined_at: string;
  called_at: string | null;
  quoted_wait_min: number | null;
  appointment_id: string | null;
  ended_at: string | null;
}

const ENTRY_COLUMNS = `e.id AS entry_id, e.store_id, e.customer_id, e.guest_name, e.guest_phone, e.service_id,
  e.preferred_unit_id, e.party_size, e.status, e.joined_at, e.called_at, e.quoted_wait_min, e.appointment_id, e.ended_at`;

export async function findStoreSettings(q: Queryable, storeId: string): Promise<StoreQueueSettings | null> {
  const res = await q.query<StoreQueueSettings>(
    'SELECT id, currency, walkin_mode, called_hold_minutes FROM stores WHERE id = $1',
    [storeId],
  );
  return res.rows[0] ?? null;
}

/** The live queue (waiting and called) in join order, with each entry's service duration. */
export async function liveEntries(q: Queryable, storeId: string): Promise<Array<EntryRow & { service_duration_min: number | null }>> {
  const res = await q.query<EntryRow & { service_duration_min: number | null }>(
    `SELECT ${ENTRY_COLUMNS}, s.duration_min AS service_duration_min
       FROM queue_entries e
       LEFT JOIN services s ON s.store_id = e.store_id AND s.id = e.service_id
      WHERE e.store_id = $1 AND e.status IN ('waiting', 'called')
      ORDER BY e.joined_at, e.join_seq`,
    [storeId],
  );
  return res.rows;
}

export async function findEntry(q: Queryable, storeId: string, entryId: string): Promise<EntryRow | null> {
  const res = await q.query<EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM queue_entries e WHERE e.store_id = $1 AND e.id = $2`, [storeId, entryId]);
  return res.rows[0] ?? null;
}

/** Locks the entry row: every transition of one entry is decided by whoever holds this lock. */
export async function lockEntry(tx: Tx, storeId: string, entryId: string): Promise<EntryRow | null> {
  const res = await tx.query<EntryRow>(
    `SELECT ${ENTRY_COLUMNS} FROM queue_entries e WHERE e.store_id = $1 AND e.id = $2 FOR UPDATE`,
    [storeId, entryId],
  );
  return res.rows[0] ?? null;
}

export async function findEntryByClientToken(q: Queryable, storeId: string, clientToken: string): Promise<EntryRow | null> {
  const res = await q.query<EntryRow>(
    `SELECT ${ENTRY_COLUMNS} FROM queue_entries e WHERE e.store_id = $1 AND e.client_token = $2`,
    [storeId, clientToken],
  );
  return res.rows[0] ?? null;
}

export interface NewEntry {
  storeId: string;
  customerId: string | null;
  guestName: string | null;
  guestPhone: string | null;
  serviceId: string | null;
  preferredUnitId: string | null;
  partySize: number;
  joinedAt: string;
  quotedWaitMin: number | null;
  clientToken: string | null;
}

/** Inserts the entry; null when a concurrent join with the same client_token got there first. */
export async function insertEntry(tx: Tx, e: NewEntry): Promise<EntryRow | null> {
  const res = await tx.query<EntryRow>(
    `INSERT INTO queue_entries AS e (store_id, customer_id, guest_name, guest_phone, service_id, preferred_unit_id,
       party_size, status, joined_at, quoted_wait_min, client_token)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'waiting', $8, $9, $10)
     ON CONFLICT (store_id, client_token) WHERE client_token IS NOT NULL DO NOTHING
     RETURNING ${ENTRY_COLUMNS}`,
    [e.storeId, e.customerId, e.guestName, e.guestPhone, e.serviceId, e.preferredUnitId, e.partySize, e.joinedAt, e.quotedWaitMin, e.clientToken],
  );
  return res.rows[0] ?? null;
}

export async function markCalled(tx: Tx, storeId: string, entryId: string, calledAt: string): Promise<void> {
  await tx.query(`UPDATE queue_entries SET status = 'called', called_at = $3 WHERE store_id = $1 AND id = $2`, [storeId, entryId, calledAt]);
}

export async function markAssigned(tx: Tx, storeId: string, entryId: string, appointmentId: string): Promise<void> {
  await tx.query(`UPDATE queue_entries SET status = 'assigned', appointment_id = $3 WHERE store_id = $1 AND id = $2`, [
    storeId,
    entryId,
    appointmentId,
  ]);
}

export async function markEnded(tx: Tx, storeId: string, entryId: string, status: 'left' | 'no_show', endedAt: string): Promise<void> {
  await tx.query(`UPDATE queue_entries SET status = $3, ended_at = $4 WHERE store_id = $1 AND id = $2`, [storeId, entryId, status, endedAt]);
}

export interface ServiceFacts {
  id: string;
  duration_min: number;
  price_pence: number;
  price_type: 'fixed' | 'from' | 'per_person';
  is_active: boolean;
}

export async function findService(q: Queryable, storeId: string, serviceId: string): Promise<ServiceFacts | null> {
  const res = await q.query<ServiceFacts>(
    'SELECT id, duration_min, price_pence, price_type, is_active FROM services WHERE store_id = $1 AND id = $2',
    [storeId, serviceId],
  );
  return res.rows[0] ?? null;
}

export async function findUnit(q: Queryable, storeId: string, unitId: string): Promise<{ id: string; is_active: boolean; bookable: boolean } | null> {
  const res = await q.query<{ id: string; is_active: boolean; bookable: boolean }>(
    'SELECT id, is_active, bookable FROM units WHERE store_id = $1 AND id = $2',
    [storeId, unitId],
  );
  return res.rows[0] ?? null;
}

/** The customer and whether this store has wholly blocked them. */

/** Units that can seat a walk-in (active and bookable), in display order. */
export async function seatingUnits(q: Queryable, storeId: string): Promise<string[]> {
  const res = await q.query<{ id: string }>(
    'SELECT id FROM units WHERE store_id = $1 AND is_active AND bookable ORDER BY sort, display_name, id',
    [storeId],
  );
  return res.rows.map((r) => r.id);
}

export interface BusyRow {
  unit_id: string;
  starts_at: string;
  ends_at: string;
}

/**
 * Everything that occupies a unit in [from, to): live appointment blocks (the same rows the
 * no-overlap constraint counts, plus force-booked ones, whose customer still sits in the chair),
 * unexpired holds and time-off. One query, so the estimate is one consistent read.
 */
export async function busyIntervals(q: Queryable, storeId: string, from: string, to: string): Promise<BusyRow[]> {
  const res = await q.query<BusyRow>(
    `SELECT unit_id, lower(block) AS starts_at, upper(block) AS ends_at FROM appointments
      WHERE store_id = $1 AND status NOT IN ('cancelled', 'no_show') AND block && tstzrange($2::timestamptz, $3::timestamptz)
     UNION ALL
     SELECT unit_id, starts_at, ends_at FROM holds
      WHERE store_id = $1 AND released_at IS NULL AND (expires_at IS NULL OR expires_at > $2::timestamptz)
        AND tstzrange(starts_at, ends_at) && tstzrange($2::timestamptz, $3::timestamptz)
     UNION ALL
     SELECT unit_id, starts_at, ends_at FROM time_off
      WHERE store_id = $1 AND tstzrange(starts_at, ends_at) && tstzrange($2::timestamptz, $3::timestamptz)`,
    [storeId, from, to],
  );
  return res.rows;
}
