// The walk-in wait model: where and when each live queue entry is expected to be seated, given
// what already occupies the store's units. Pure (no database, no clock) so it can be unit-tested
// and property-tested; the queue service feeds it the busy intervals of the day.
//
// The model (docs/decisions/queue.md):
// - Each unit is free at the first gap, at or after a start point, that is long enough for the
//   entry: walk the unit's busy intervals in start order from the start point; an interval that
//   overlaps [t, t + duration) pushes t to its end; the first t with room is the start.
// - Called entries go first (they are about to be seated), then waiting entries, each group in
//   join order. Each entry is placed on its preferred unit when it asked for one that can take
//   walk-ins, otherwise on the unit where it could start earliest (ties: the first unit in order).
//   Its placement then occupies that unit for its duration.
// - Per unit, a later entry never starts before an earlier one ends (the start point is the end of
//   the unit's last placement), so a short service cannot jump a longer one into a gap on the same
//   unit: position 1 never waits longer than position 2 for the same unit.

export interface Interval {
  /** Epoch milliseconds, inclusive. */
  start: number;
  /** Epoch milliseconds, exclusive. */
  end: number;
}

export interface ModelUnit {
  id: string;
  busy: Interval[];
}

export interface ModelEntry {
  id: string;
  status: 'waiting' | 'called';
  durationMin: number;
  preferredUnitId: string | null;
}

export interface Placement {
  entryId: string;
  /** 1-based among waiting entries; null for called entries. */
  position: number | null;
  unitId: string | null;
  /** Epoch milliseconds; null when no unit can take the entry. */
  start: number | null;
}

const MINUTE = 60_000;

interface UnitState {
  id: string;
  busy: Interval[];
  /** End of the last queue placement on this unit: nobody behind it starts earlier. */
  floor: number;
}

/** The earliest start at or after the unit's floor with a gap of durationMs. */
export function earliestStart(unit: { busy: Interval[]; floor: number }, durationMs: number): number {
  let t = unit.floor;
  for (const b of unit.busy) {
    if (b.end <= t) continue;
    if (b.start >= t + durationMs) break;
    t = b.end;
  }
  return t;
}

function occupy(unit: UnitState, interval: Interval) {
  const at = unit.busy.findIndex((b) => b.start > interval.start);
  unit.busy.splice(at === -1 ? unit.busy.length : at, 0, interval);
  unit.floor = interval.end;
}

/**
 * Places the live entries (given in join order) on the units (given in display order).
 * Returns one placement per entry, in the order given.
 */
export function placeQueue(now: number, units: ModelUnit[], entries: ModelEntry[]): Placement[] {
  const states: UnitState[] = units.map((u) => ({
    id: u.id,
    busy: u.busy.filter((b) => b.end > now && b.end > b.start).sort((a, b) => a.start - b.start || a.end - b.end),
    floor: now,
  }));
  const byId = new Map(states.map((s) => [s.id, s]));
  const placements = new Map<string, Placement>();

  const place = (entry: ModelEntry, position: number | null) => {
    const durationMs = Math.max(1, entry.durationMin) * MINUTE;
    const preferred = entry.preferredUnitId ? byId.get(entry.preferredUnitId) : undefined;
    const candidates = preferred ? [preferred] : states;
    let best: { unit: UnitState; start: number } | null = null;
    for (const unit of candidates) {
      const start = earliestStart(unit, durationMs);
      if (!best || start < best.start) best = { unit, start };
    }
    if (best) occupy(best.unit, { start: best.start, end: best.start + durationMs });
    placements.set(entry.id, {
      entryId: entry.id,
      position,
      unitId: best?.unit.id ?? null,
      start: best?.start ?? null,
    });
  };

  for (const entry of entries) if (entry.status === 'called') place(entry, null);
  let position = 0;
  for (const entry of entries) if (entry.status === 'waiting') place(entry, ++position);

  return entries.map((e) => placements.get(e.id)!);
}

/** Whole minutes from now until start, rounded up (a wait of 30 seconds is quoted as 1 minute). */
export function waitMinutes(now: number, start: number): number {
  return Math.max(0, Math.ceil((start - now) / MINUTE));
}
