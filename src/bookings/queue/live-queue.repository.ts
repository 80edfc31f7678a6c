// What the walk-in queue's wait model reads (queue-view.ts), in one statement: the live entries, the
// units that can seat them and their busy intervals, with the store's queue settings.
import type { Queryable } from '../../platform/db/port.ts';
import {
  STORE_COLUMNS,
  storeOf,
  type CombinedRow,
  type EntryRow,
  type StoreQueueSettings,
} from './queue.repository.ts';

/** walk_in_min: how long the entry will occupy a unit (bbo_walk_in_minutes, queue-seat.sql). */
export type LiveEntryRow = EntryRow & { walk_in_min: number };

export interface BusyRow {
  unit_id: string;
  starts_at: string;
  ends_at: string;
}

export interface LiveQueueFacts {
  /** The store's queue settings; null: no such store. */
  store: StoreQueueSettings | null;
  /** The live queue (waiting and called) in join order, with each entry's service duration. */
  entries: LiveEntryRow[];
  /** Units that can seat a walk-in (active and bookable), in display order. */
  unit_ids: string[];
  /** Everything that occupies a unit in [from, to). */
  busy: BusyRow[];
}

// liveQueueFacts' statement: three parts, each aggregated into one JSON value, joined into one row
// with the store's queue settings (plain columns, as the other combined reads take them).
// JSON has no timestamptz, so each instant is written with bbo_iso (db/functions/write-helpers.sql), which gives the
// text the value parsers give for a column read directly ('2026-06-01T09:00:00.000Z', microseconds
// cut to milliseconds); only an infinite instant, which no API accepts, differs (null, not 'infinity').
// $1 store, $2 and $3 the busy window.
const LIVE_QUEUE_SQL = `
  WITH live_entries AS (
    -- The live queue (waiting and called) in join order, with each entry's service duration.
    SELECT coalesce(json_agg(le ORDER BY e.joined_at, e.join_seq), '[]') AS entries
      FROM queue_entries e
      LEFT JOIN services s ON s.store_id = e.store_id AND s.id = e.service_id
     CROSS JOIN LATERAL (
       SELECT e.id AS entry_id, e.store_id, e.customer_id, e.guest_name, e.guest_phone, e.service_id,
              e.preferred_unit_id, e.party_size, e.status, bbo_iso(e.joined_at) AS joined_at, bbo_iso(e.called_at) AS called_at,
              e.quoted_wait_min, e.appointment_id, bbo_iso(e.ended_at) AS ended_at, bbo_walk_in_minutes(s.duration_min) AS walk_in_min) le
     WHERE e.store_id = $1 AND e.status IN ('waiting', 'called')
  ), seating_units AS (
    -- Units that can seat a walk-in (active and bookable), in display order.
    SELECT coalesce(json_agg(id ORDER BY sort, display_name, id), '[]') AS unit_ids
      FROM units WHERE store_id = $1 AND is_active AND bookable
  ), busy_intervals AS (
    -- Live appointment blocks (the same rows the no-overlap constraint counts, plus force-booked
    -- ones, whose customer still sits in the chair), unexpired holds and time-off. Unordered: the
    -- wait model sorts them.
    SELECT coalesce(json_agg(json_build_object('unit_id', unit_id, 'starts_at', bbo_iso(starts_at), 'ends_at', bbo_iso(ends_at))), '[]') AS busy
      FROM (SELECT unit_id, lower(block) AS starts_at, upper(block) AS ends_at FROM appointments
             WHERE store_id = $1 AND bbo_live(status) AND block && tstzrange($2::timestamptz, $3::timestamptz)
            UNION ALL
            SELECT unit_id, starts_at, ends_at FROM holds
             WHERE store_id = $1 AND released_at IS NULL AND (expires_at IS NULL OR expires_at > $2::timestamptz)
               AND tstzrange(starts_at, ends_at) && tstzrange($2::timestamptz, $3::timestamptz)
            UNION ALL
            SELECT unit_id, starts_at, ends_at FROM time_off
             WHERE store_id = $1 AND tstzrange(starts_at, ends_at) && tstzrange($2::timestamptz, $3::timestamptz)) b
  )
  -- The aggregates always make one row; the store's columns are null on it when there is no such store.
  SELECT ${STORE_COLUMNS}, entries, unit_ids, busy
    FROM live_entries CROSS JOIN seating_units CROSS JOIN busy_intervals
    LEFT JOIN stores st ON st.id = $1`;

/**
 * What the wait model reads, in one statement: the live entries, the units that can seat them and
 * their busy intervals in [from, to), with the store's queue settings, which the list answers with.
 * One statement, so one round trip and one consistent snapshot.
 */
export async function liveQueueFacts(q: Queryable, storeId: string, from: string, to: string): Promise<LiveQueueFacts> {
  const res = await q.query<CombinedRow>(LIVE_QUEUE_SQL, [storeId, from, to]);
  const r = res.rows[0];
  return { store: storeOf(r), entries: r.entries, unit_ids: r.unit_ids, busy: r.busy };
}
