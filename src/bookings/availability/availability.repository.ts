// Where a service can start: ONE rule for "offered", kept in the database as bbo_offered_slots
// (db/functions/offered-slots.sql, where the statement and its parts are explained).
//
// The availability search runs it over a date range, and the customer's hold and confirm run the
// very same function for one exact start inside their one statement (db/functions/customer-hold.sql), so a slot the
// search shows can be held, and a start the search would not show is refused, by construction
// (docs/decisions/availability.md, "One rule for offered"). The function is plain SQL, inlined into the query below.
import type { Queryable } from '../../platform/db/port.ts';

export interface SlotQuery {
  storeId: string;
  serviceId: string;
  variantId: string | null;
  addonIds: string[];
  unitId: string | null;
  partySize: number;
  /** Store-local dates (inclusive). */
  fromDate: string;
  toDate: string;
  /** The customer view: online_bookable units, online_visible services, nothing if blocked. */
  customerView: boolean;
  customerId: string | null;
  /** Holds whose expires_at is not after this no longer block. */
  now: string;
}

export interface OfferedSlot {
  date: string;
  starts_at: string;
  ends_at: string;
  block_starts_at: string;
  block_ends_at: string;
  local_time: string;
  unit_ids: string[];
}

// A range of days (no exact start), without the notice and horizon (no asked-at instant): the search
// keeps answers computed this way and applies both as it serves them (availability.service.ts).
const SLOTS_SQL = `SELECT date, starts_at, ends_at, block_starts_at, block_ends_at, local_time, unit_ids
  FROM bbo_offered_slots($1::uuid, $2::uuid, $3::uuid, $4::uuid[], $5::uuid, $6::int, $7::date, $8::date, NULL,
                         $9::boolean, $10::uuid, NULL, $11::timestamptz)
 ORDER BY starts_at`;

function params(q: SlotQuery): unknown[] {
  return [
    q.storeId,
    q.serviceId,
    q.variantId,
    q.addonIds,
    q.unitId,
    q.partySize,
    q.fromDate,
    q.toDate,
    q.customerView,
    q.customerId,
    q.now,
  ];
}

// A prepared statement like any other, with the function inlined: the parts are materialised CTEs
// read by index or hash, so the generic plan is the custom one (measured at 1, 31 and 90 days on the
// bench's 20-unit store), and planning the statement every call cost 2 ms of a one-day hold's 3.

// unit_ids travel as one comma-separated string: node-postgres parses a text[] in JavaScript, character
// by character, and for a month of a 20-unit store that cost more than the statement itself.
type SlotRow = Omit<OfferedSlot, 'unit_ids'> & { unit_ids: string };
const slotOf = (r: SlotRow): OfferedSlot => ({
  date: r.date,
  starts_at: r.starts_at,
  ends_at: r.ends_at,
  block_starts_at: r.block_starts_at,
  block_ends_at: r.block_ends_at,
  local_time: r.local_time,
  unit_ids: r.unit_ids.split(','),
});

export async function offeredSlots(db: Queryable, q: SlotQuery): Promise<OfferedSlot[]> {
  const res = await db.query<SlotRow>(SLOTS_SQL, params(q));
  return res.rows.map(slotOf);
}
