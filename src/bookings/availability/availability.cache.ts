// Answers the availability search has computed, kept by store until that store's diary changes.
//
// Searches far outnumber bookings (customers browse), and computing a month for a 20-unit store is
// tens of milliseconds of SQL. So each answer is kept, serialised by day, and served again while
// the database says nothing it read has changed:
// - The database records every change that can move a slot, per store and transaction, by trigger
//   (availability_changes, migrations/107_availability_changes.sql). Whatever wrote it, it is seen.
// - Each store's answers belong to a generation, opened at a database snapshot. Before serving, the
//   search's first read (booking-terms.repository.ts) asks whether any transaction that snapshot did
//   not see has changed the store. If one has, the generation and all its answers are dropped.
//   Every process asks for itself, so several processes never serve each other's stale answers.
// - An answer is computed without the notice and the horizon, which are applied when it is served
//   (they move with the clock), and is kept only until the first hold it counted as busy expires.
// - At most maxBytes are kept, least recently used first out; a generation lives at most
//   MAX_GENERATION_MS, so nothing is kept for long on the strength of an old snapshot.
import type { Database } from '../../platform/db/port.ts';

/** One slot of a kept answer: its start, and its JSON as the answer shows it. */
export interface KeptSlot {
  at: number;
  json: string;
}

export interface KeptDay {
  date: string;
  slots: KeptSlot[];
}

export interface KeptAnswer {
  days: KeptDay[];
  /** Every slot's start, in order (the days' slots one after another). */
  starts: Float64Array;
  /** The clock reading it was computed at: a clock read earlier may not use it. */
  computedAt: number;
  /** When the first hold it counts as busy expires (Infinity when none does). */
  validUntil: number;
  /** Roughly what it holds, the last body it sent included. */
  bytes: number;
  /** The last body sent and what it was built for (availability.answer.ts, servedBody). */
  served: { key: string; body: Buffer } | null;
}

interface Generation {
  readonly storeId: string;
  /** The database snapshot (pg_snapshot text) changes are counted from. */
  readonly snapshot: string;
  readonly bornAt: number;
}

/**
 * What observe() answers: the store's generation, and whether this search joined one that another
 * search opened while this one's check was asked (then only answers started after the check count).
 */
export interface Observed {
  readonly gen: Generation;
  readonly joined: boolean;
}

interface Entry {
  gen: Generation;
  answer: KeptAnswer;
  /** performance.now() when its computation started: it saw every change committed before. */
  startedAt: number;
}

/** A generation is renewed after this long even when nothing changed. */
export const MAX_GENERATION_MS = 10 * 60 * 1000;
/** Stores with a generation at once (their kept answers go with them). */
const MAX_STORES = 10_000;

export class AvailabilityCache {
  private readonly generations = new Map<string, Generation>();
  /** In least-recently-used order (a Map iterates in insertion order; a hit moves to the end). */
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, { gen: Generation; promise: Promise<KeptAnswer>; startedAt: number }>();
  private bytes = 0;
  /** Answers served without computing (kept, or shared while computing) and answers computed: for /metrics. */
  private hits = 0;
  private misses = 0;

  readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** The snapshot the store's current generation counts changes from, if it has one. */
  snapshotOf(storeId: string): string | null {
    return this.generations.get(storeId)?.snapshot ?? null;
  }

  /**
   * What the database said about the store: whether anything changed since the generation's
   * snapshot, and the snapshot of that very check. A change, no generation, or an old one opens a
   * new generation at the check's snapshot (answers computed after it see at least as much).
   */
  observe(storeId: string, check: { snapshot: string; changed: boolean | null }, nowMs: number, since?: string | null): Observed {
    const gen = this.generations.get(storeId);
    const young = gen !== undefined && nowMs - gen.bornAt < MAX_GENERATION_MS && nowMs >= gen.bornAt;
    if (gen && young && check.changed === false) return { gen, joined: false };
    // Renewed while this check was asked (`since`, the snapshot the check counted from, is not the
    // generation's any more): another search saw the same change and opened a generation. Join it
    // instead of opening one more, so a burst of searches after a booking computes each answer once.
    // Its answers computed before this check may predate the change this check saw: answer() then
    // takes only answers whose computation started after the check returned (freshAfter).
    if (since !== undefined && gen && young && gen.snapshot !== since) return { gen, joined: true };
    const fresh: Generation = { storeId, snapshot: check.snapshot, bornAt: nowMs };
    // Newest last, so the stores asked about least recently are forgotten first.
    this.generations.delete(storeId);
    this.generations.set(storeId, fresh);
    for (const oldest of this.generations.keys()) {
      if (this.generations.size <= MAX_STORES) break;
      this.generations.delete(oldest);
    }
    return { gen: fresh, joined: false };
  }

  /** The kept answer for key in gen, or compute's, kept when gen is still the store's generation. */
  async answer(observed: Observed, key: string, nowMs: number, compute: () => Promise<KeptAnswer>, freshAfter = 0): Promise<KeptAnswer> {
    // In a joined generation only answers started after this search's check count.
    const { gen } = observed;
    const after = observed.joined ? freshAfter : 0;
    const id = `${gen.storeId}|${key}`;
    const hit = this.entries.get(id);
    if (hit) {
      if (hit.gen === gen && hit.startedAt >= after && nowMs >= hit.answer.computedAt && nowMs < hit.answer.validUntil) {
        this.entries.delete(id);
        this.entries.set(id, hit);
        this.hits++;
        return hit.answer;
      }
      this.drop(id, hit);
    }
    // Searches asking the same question at once share one computation.
    const inFlight = this.pending.get(id);
    if (inFlight && inFlight.gen === gen && inFlight.startedAt >= after) {
      this.hits++;
      return inFlight.promise;
    }
    this.misses++;
    const startedAt = performance.now();
    const promise = compute();
    this.pending.set(id, { gen, promise, startedAt });
    try {
      const answer = await promise;
      if (this.generations.get(gen.storeId) === gen && answer.bytes <= this.maxBytes / 4) this.keep(id, { gen, answer, startedAt });
      return answer;
    } finally {
      if (this.pending.get(id)?.promise === promise) this.pending.delete(id);
    }
  }

  private keep(id: string, entry: Entry): void {
    const old = this.entries.get(id);
    if (old) this.drop(id, old);
    this.entries.set(id, entry);
    this.bytes += entry.answer.bytes;
    for (const [oldest, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest, e);
    }
  }

  private drop(id: string, entry: Entry): void {
    this.entries.delete(id);
    this.bytes -= entry.answer.bytes;
  }

  /** For tests and the operator: how much is kept. */
  stats(): { answers: number; bytes: number; stores: number; hits: number; misses: number } {
    return { answers: this.entries.size, bytes: this.bytes, stores: this.generations.size, hits: this.hits, misses: this.misses };
  }
}

// One per database handle (so per process), set by the app from AVAILABILITY_CACHE_MB; null when 0.
const caches = new WeakMap<Database, AvailabilityCache | null>();

/** The cache of answers computed over db, or null when keeping answers is off (or never configured). */
export function availabilityCache(db: Database): AvailabilityCache | null {
  return caches.get(db) ?? null;
}

/** Sets the size of db's cache (0 turns it off); the app does this once, at start. */
export function configureAvailabilityCache(db: Database, maxBytes: number): void {
  if (caches.get(db)?.maxBytes === maxBytes) return;
  caches.set(db, maxBytes > 0 ? new AvailabilityCache(maxBytes) : null);
}
