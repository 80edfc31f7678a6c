// The live queue as staff see it: entries in join order with their derived place, expected wait,
// expected start and suggested unit, computed by the wait model over the store's busy intervals.
import type { Queryable } from '../../platform/db/port.ts';
import type { EntryRow, StoreQueueSettings } from './queue.repository.ts';
import { liveQueueFacts, type LiveEntryRow } from './live-queue.repository.ts';
import type { QueueEntry } from './queue.schemas.ts';
import { placeQueue, waitMinutes, type ModelEntry, type ModelUnit, type Placement } from './wait-model.ts';

// How far ahead busy intervals are read. A walk-in queue lives within the day; anything placed
// beyond this horizon is estimated against an empty diary.
const HORIZON_MS = 24 * 60 * 60 * 1000;

export interface LiveQueue {
  /** Read in the same statement; null: no such store (the caller decides what that means). */
  store: StoreQueueSettings | null;
  rows: LiveEntryRow[];
  placements: Map<string, Placement>;
}

/**
 * Reads the live queue and places it. A newcomer (an entry about to join) is placed after
 * everyone already live, so its placement is the wait to quote.
 */
export async function liveQueue(q: Queryable, storeId: string, now: Date, newcomer?: ModelEntry): Promise<LiveQueue> {
  const from = now.toISOString();
  const to = new Date(now.getTime() + HORIZON_MS).toISOString();
  const { store, entries: rows, unit_ids: unitIds, busy } = await liveQueueFacts(q, storeId, from, to);

  const units: ModelUnit[] = unitIds.map((id) => ({ id, busy: [] }));
  const byId = new Map(units.map((u) => [u.id, u]));
  for (const b of busy) byId.get(b.unit_id)?.busy.push({ start: Date.parse(b.starts_at), end: Date.parse(b.ends_at) });

  const entries: ModelEntry[] = rows.map((r) => ({
    id: r.entry_id,
    status: r.status as 'waiting' | 'called',
    durationMin: r.walk_in_min,
    preferredUnitId: r.preferred_unit_id,
  }));
  if (newcomer) entries.push(newcomer);
  const placements = placeQueue(now.getTime(), units, entries);
  return { store, rows, placements: new Map(placements.map((p) => [p.entryId, p])) };
}

/** The wire shape; derived fields only for a waiting entry that the model could place. */
export function presentEntry(row: EntryRow, placement: Placement | undefined, now: Date): QueueEntry {
  const waiting = row.status === 'waiting' && placement !== undefined;
  const start = waiting ? placement.start : null;
  return {
    entry_id: row.entry_id,
    store_id: row.store_id,
    customer_id: row.customer_id,
    guest_name: row.guest_name,
    guest_phone: row.guest_phone,
    service_id: row.service_id,
    preferred_unit_id: row.preferred_unit_id,
    party_size: row.party_size,
    status: row.status,
    joined_at: row.joined_at,
    called_at: row.called_at,
    quoted_wait_min: row.quoted_wait_min,
    appointment_id: row.appointment_id,
    queue_position: waiting ? placement.position : null,
    expected_wait_min: start === null ? null : waitMinutes(now.getTime(), start),
    expected_start: start === null ? null : new Date(start).toISOString(),
    suggested_unit_id: start === null ? null : placement!.unitId,
  };
}

/** One entry as the list would show it right now. */
export async function presentOne(q: Queryable, row: EntryRow, now: Date): Promise<QueueEntry> {
  if (row.status !== 'waiting') return presentEntry(row, undefined, now);
  const { placements } = await liveQueue(q, row.store_id, now);
  return presentEntry(row, placements.get(row.entry_id), now);
}
