// SQL of the units' calendar feeds: the feed row, and the unit's appointments in the feed's window.
import type { Queryable } from '../../platform/db/port.ts';

export interface FeedOwner {
  store_id: string;
  unit_id: string;
  unit_name: string;
  store_name: string;
  timezone: string;
  contacts: boolean;
  created_at: string;
}

export interface FeedAppointment {
  id: string;
  starts_at: string;
  ends_at: string;
  status: string;
  updated_at: string;
  service_name: string | null;
  customer_name: string | null;
  email: string | null;
  phone: string | null;
  sequence: number;
}

export interface FeedClass {
  id: string;
  starts_at: string;
  ends_at: string;
  cancelled: boolean;
  class_name: string;
  capacity: number;
  /** The occurrence's last change: scheduled, or cancelled. */
  changed_at: string;
}

export async function readFeedRow(q: Queryable, storeId: string, unitId: string): Promise<{ nonce: string } | null> {
  const res = await q.query<{ nonce: string }>(
    'SELECT nonce FROM unit_calendar_feeds WHERE store_id = $1 AND unit_id = $2',
    [storeId, unitId],
  );
  return res.rows[0] ?? null;
}

/** The unit's feed, new or replaced (a rotation): the previous token's hash is gone in the same statement. */
/** A unit's feed row as written: the nonce its token is minted from, the token's hash, when. */
export interface NewFeedRow {
  storeId: string;
  unitId: string;
  nonce: string;
  tokenHash: string;
  at: string;
}

const feedParams = (f: NewFeedRow) => [f.storeId, f.unitId, f.nonce, f.tokenHash, f.at];

export async function putFeedRow(q: Queryable, f: NewFeedRow): Promise<void> {
  await q.query(
    `INSERT INTO unit_calendar_feeds (store_id, unit_id, nonce, token_hash, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (store_id, unit_id) DO UPDATE SET nonce = EXCLUDED.nonce, token_hash = EXCLUDED.token_hash, created_at = EXCLUDED.created_at`,
    feedParams(f),
  );
}

/**
 * Creates the feed only if the unit has none (two first reads at once agree on one nonce). When a
 * concurrent first read inserted it while this statement waited on the conflict, the statement's own
 * snapshot cannot see that row: it is read again by a second statement, which can.
 */
export async function ensureFeedRow(q: Queryable, f: NewFeedRow): Promise<string> {
  const res = await q.query<{ nonce: string }>(
    `WITH ins AS (
       INSERT INTO unit_calendar_feeds (store_id, unit_id, nonce, token_hash, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (store_id, unit_id) DO NOTHING RETURNING nonce)
     SELECT nonce FROM ins UNION ALL SELECT nonce FROM unit_calendar_feeds WHERE store_id = $1 AND unit_id = $2 LIMIT 1`,
    feedParams(f),
  );
  const row = res.rows[0] ?? (await readFeedRow(q, f.storeId, f.unitId));
  if (!row) throw new Error('calendar feed row neither inserted nor found');
  return row.nonce;
}

export async function unitExists(q: Queryable, storeId: string, unitId: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM units WHERE store_id = $1 AND id = $2', [storeId, unitId])).rows.length > 0;
}

export async function feedOwner(q: Queryable, tokenHash: string): Promise<FeedOwner | null> {
  const res = await q.query<FeedOwner>(
    `SELECT f.store_id, f.unit_id, u.display_name AS unit_name, s.name AS store_name, s.timezone, s.calendar_feed_contacts AS contacts, f.created_at
       FROM unit_calendar_feeds f
       JOIN stores s ON s.id = f.store_id
       JOIN units u ON u.store_id = f.store_id AND u.id = f.unit_id
      WHERE f.token_hash = $1`,
    [tokenHash],
  );
  return res.rows[0] ?? null;
}

/**
 * The unit's appointments starting in [from, to), pending payment left out (not yet booked).
 * SEQUENCE is the number of moves and cancellations in the appointment's audit trail: it only
 * grows, and the audit log is never pruned. The classes the unit teaches are feedClasses'.
 */
export async function feedAppointments(
  q: Queryable,
  owner: FeedOwner,
  from: string,
  to: string,
): Promise<FeedAppointment[]> {
  const res = await q.query<FeedAppointment>(
    `SELECT a.id, a.starts_at, a.ends_at, a.status, a.updated_at, sv.name AS service_name,
            coalesce(c.name, a.guest_name) AS customer_name, coalesce(c.email, a.guest_email) AS email,
            coalesce(c.phone, a.guest_phone) AS phone,
            (SELECT count(*) FROM audit_log l
              WHERE l.store_id = a.store_id AND l.entity = 'appointment' AND l.entity_id = a.id::text
                AND l.action IN ('appointment.rescheduled', 'appointment.cancelled'))::int AS sequence
       FROM appointments a
       LEFT JOIN services sv ON sv.store_id = a.store_id AND sv.id = a.service_id
       LEFT JOIN customers c ON c.id = a.customer_id
      WHERE a.store_id = $1 AND a.unit_id = $2 AND a.starts_at >= $3 AND a.starts_at < $4 AND a.status <> 'pending_payment'
      ORDER BY a.starts_at, a.id`,
    [owner.store_id, owner.unit_id, from, to],
  );
  return res.rows;
}

/**
 * The class occurrences the unit teaches starting in [from, to): those whose time it occupies
 * (class_occurrences.unit_id, the instructor in effect when scheduled, as the diary and the
 * exclusion constraint count them), cancelled ones included so a calendar shows them cancelled.
 * No attendee is named: a class's roster is not the staff member's phone calendar's business.
 */
export async function feedClasses(q: Queryable, owner: FeedOwner, from: string, to: string): Promise<FeedClass[]> {
  const res = await q.query<FeedClass>(
    `SELECT o.id, o.starts_at, o.ends_at, o.cancelled_at IS NOT NULL AS cancelled, c.name AS class_name,
            coalesce(o.capacity, c.capacity) AS capacity, coalesce(o.cancelled_at, o.created_at) AS changed_at
       FROM class_occurrences o
       JOIN classes c ON c.store_id = o.store_id AND c.id = o.class_id
      WHERE o.store_id = $1 AND o.unit_id = $2 AND o.starts_at >= $3 AND o.starts_at < $4
      ORDER BY o.starts_at, o.id`,
    [owner.store_id, owner.unit_id, from, to],
  );
  return res.rows;
}
