// Availability computed by day, kept per store until the database says that day may have changed.
//
// Searches far outnumber bookings (customers browse), and computing a month for a 20-unit store is
// tens of milliseconds of SQL. So each store-local day of an answer is kept, serialised, and served
// again while the database says nothing it read has changed:
// - The database records every change that can move a slot, per store and transaction, by trigger,
//   with the time it occupied before and after (availability_changes; db/functions/availability-changes.sql).
//   Whatever wrote it, it is seen.
// - Each store has a snapshot that changes are counted from. Before serving, the search's first read
//   (booking-terms.repository.ts) asks which days any transaction that snapshot did not see has
//   touched. Those days (and the day either side: a day's slots read its neighbours' hours and
//   blocks) are stale from that moment; a change to the store's set-up makes every day stale. Only
//   days computed after the check that found them stale count again. Every process asks for itself,
//   so several processes never serve each other's stale days.
// - So a booking costs a busy store the recomputation of the days around it, not of every answer.
// - A day is computed without the notice and the horizon, which are applied when it is served (they
//   move with the clock), and is kept only until the first hold it counted as busy expires.
// - Days asked for at once by several searches are computed once (single flight), also when the
//   searches ask for different but overlapping ranges.
// - At most maxBytes of days are kept, least recently used first out, and up to half that again of
//   assembled answers with the bytes they sent; a store's snapshot is renewed (every day stale)
//   after MAX_GENERATION_MS, so nothing is kept for long on the strength of an old snapshot.
import type { Database } from '../../platform/db/port.ts';
import { addDays, answerOf, dayBytes, staleDates, type KeptAnswer, type KeptDay } from './availability.answer.ts';
import type { Diary } from './booking-terms.repository.ts';
import { ByteLru } from './byte-lru.ts';

/** What the search's first read said about the store's changes. */
export type Check = Pick<Diary, 'snapshot' | 'changed' | 'changedDays'>;

/** What a computation answers: its days, and when the first hold it counted as busy expires. */
export interface Computed {
  days: KeptDay[];
  validUntil: number;
}

interface StoreState {
  /** The database snapshot (pg_snapshot text) changes are counted from. */
  snapshot: string;
  readonly bornAt: number;
  /** performance.now() of the last check that made every day stale. */
  allStaleAt: number;
  /** performance.now() of the last check that made a day stale, by date. */
  readonly dayStaleAt: Map<string, number>;
}

interface DayEntry {
  day: KeptDay;
  /** performance.now() when its computation started: it saw every change committed before. */
  startedAt: number;
  /** The clock reading it was computed at: a clock read earlier may not use it. */
  computedAt: number;
  /** When the first hold it counts as busy expires (Infinity when none does). */
  validUntil: number;
}

/** A store's snapshot is renewed after this long even when nothing changed. */
export const MAX_GENERATION_MS = 10 * 60 * 1000;
/** Stores with a snapshot at once (their kept days go stale with it). */
const MAX_STORES = 10_000;
export class AvailabilityCache {
  private readonly stores = new Map<string, StoreState>();
  /** Kept days, by dayId. */
  private readonly entries: ByteLru<DayEntry>;
  /** Days being computed: the computation's promise (its days by date) and when it started. */
  private readonly pending = new Map<string, { promise: Promise<Map<string, DayEntry>>; startedAt: number }>();
  /** Assembled answers with the days they were built from, so an unchanged answer is sent as the same bytes. */
  private readonly assembled: ByteLru<{ parts: DayEntry[]; answer: KeptAnswer }>;
  /** Searches served without computing (kept, or shared while computing) and searches that computed: for /metrics. */
  private hits = 0;
  private misses = 0;

  readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
    this.entries = new ByteLru(maxBytes);
    this.assembled = new ByteLru(maxBytes / 2);
  }

  /** The snapshot the store's changes are counted from, if it has one. */
  snapshotOf(storeId: string): string | null {
    return this.stores.get(storeId)?.snapshot ?? null;
  }

  /**
   * What the database said about the store, asked against `since` (the snapshot snapshotOf gave
   * before the check) and returned at checkedAt (performance.now()). The days a change touched go
   * stale at checkedAt; no snapshot yet, an old one, a set-up change or a check that counted from no
   * snapshot of ours makes every day stale. A check that counted from the store's current snapshot
   * moves it on to the check's own.
   */
  observe(storeId: string, check: Check, nowMs: number, since: string | null, checkedAt: number): void {
    const st = this.stores.get(storeId);
    if (!st || nowMs - st.bornAt >= MAX_GENERATION_MS || nowMs < st.bornAt) {
      // Newest last, so the stores asked about least recently are forgotten first.
      this.stores.delete(storeId);
      this.stores.set(storeId, {
        snapshot: check.snapshot,
        bornAt: nowMs,
        allStaleAt: checkedAt,
        dayStaleAt: new Map(),
      });
      for (const oldest of this.stores.keys()) {
        if (this.stores.size <= MAX_STORES) break;
        this.stores.delete(oldest);
      }
      return;
    }
    if (check.changed === false) return;
    const dates = check.changed ? staleDates(check.changedDays) : null;
    if (dates === null) {
      st.allStaleAt = checkedAt;
      st.dayStaleAt.clear();
    } else for (const date of dates) st.dayStaleAt.set(date, checkedAt);
    if (st.snapshot === since) st.snapshot = check.snapshot;
  }

  /**
   * The answer for key over count days from fromDate: kept days where they are still good, the rest
   * computed (runs of consecutive days, one computation each) or taken from a computation already
   * under way that started after they went stale.
   */
  async answer(
    storeId: string,
    key: string,
    fromDate: string,
    count: number,
    nowMs: number,
    compute: (from: string, to: string) => Promise<Computed>,
  ): Promise<KeptAnswer> {
    const st = this.stores.get(storeId);
    const answerId = `${storeId}|${key}|${fromDate}|${count}`;
    // The answer sent last time, when every day it was built from is still good: no day looked up.
    const last = this.assembled.get(answerId);
    if (st && last?.parts.every((p) => this.usable(st, p, nowMs))) {
      this.hits++;
      return last.answer;
    }
    const dates = Array.from({ length: count }, (_, i) => addDays(fromDate, i));
    const parts: (DayEntry | undefined)[] = dates.map((date) =>
      st ? this.kept(st, dayId(storeId, key, date), nowMs) : undefined,
    );
    const waits: Promise<void>[] = [];
    const missing: number[] = [];
    for (let i = 0; i < count; i++) {
      if (parts[i]) continue;
      const inFlight = st ? this.pending.get(dayId(storeId, key, dates[i])) : undefined;
      if (inFlight && inFlight.startedAt >= this.staleAt(st!, dates[i]))
        waits.push(inFlight.promise.then((days) => void (parts[i] = days.get(dates[i]))));
      else missing.push(i);
    }
    for (const run of runsOf(missing)) {
      const from = dates[run[0]];
      const to = dates[run[run.length - 1]];
      waits.push(
        this.computeRun(st, storeId, key, dates.slice(run[0], run[0] + run.length), nowMs, () =>
          compute(from, to),
        ).then((days) => {
          for (const i of run) parts[i] = days.get(dates[i]);
        }),
      );
    }
    await Promise.all(waits);
    if (missing.length > 0) this.misses++;
    else this.hits++;
    return this.assemble(
      answerId,
      parts.map((p, i) => p ?? unanswered(dates[i])),
    );
  }

  private staleAt(st: StoreState, date: string): number {
    return Math.max(st.allStaleAt, st.dayStaleAt.get(date) ?? -Infinity);
  }

  /** Whether a day is still good: computed after it last went stale, by a clock not ahead of this one, before a hold it counted expired. */
  private usable(st: StoreState, entry: DayEntry, nowMs: number): boolean {
    return entry.startedAt >= this.staleAt(st, entry.day.date) && nowMs >= entry.computedAt && nowMs < entry.validUntil;
  }

  /** The kept day under id, if it is still good for this store and clock (a stale one is dropped). */
  private kept(st: StoreState, id: string, nowMs: number): DayEntry | undefined {
    const hit = this.entries.get(id);
    if (!hit || this.usable(st, hit, nowMs)) return hit;
    this.entries.delete(id);
    return undefined;
  }

  private async computeRun(
    st: StoreState | undefined,
    storeId: string,
    key: string,
    dates: string[],
    nowMs: number,
    compute: () => Promise<Computed>,
  ): Promise<Map<string, DayEntry>> {
    const startedAt = performance.now();
    const promise = compute().then(({ days, validUntil }) => {
      const byDate = new Map<string, DayEntry>();
      for (const day of days) {
        const entry: DayEntry = { day, startedAt, computedAt: nowMs, validUntil };
        byDate.set(day.date, entry);
        // Kept only while the store's snapshot is the one it was computed under and the day has not gone stale since it started.
        if (st && this.stores.get(storeId) === st && startedAt >= this.staleAt(st, day.date))
          this.entries.set(dayId(storeId, key, day.date), entry, dayBytes(day));
      }
      return byDate;
    });
    const ids = dates.map((date) => dayId(storeId, key, date));
    if (st) for (const id of ids) this.pending.set(id, { promise, startedAt });
    try {
      return await promise;
    } finally {
      for (const id of ids) if (this.pending.get(id)?.promise === promise) this.pending.delete(id);
    }
  }

  /** The answer from these days (the one assembled last time when it was built from the very same days). */
  private assemble(id: string, parts: DayEntry[]): KeptAnswer {
    const last = this.assembled.get(id);
    if (last && last.parts.length === parts.length && last.parts.every((p, i) => p === parts[i])) return last.answer;
    const answer = answerOf(parts.map((p) => p.day));
    this.assembled.set(id, { parts, answer }, answer.bytes);
    return answer;
  }

  /** For tests and the operator: how much is kept (answers: kept days). */
  stats(): { answers: number; bytes: number; stores: number; hits: number; misses: number } {
    return {
      answers: this.entries.size,
      bytes: this.entries.bytes + this.assembled.bytes,
      stores: this.stores.size,
      hits: this.hits,
      misses: this.misses,
    };
  }
}

/** Where a kept day, or its computation under way, is found: the store, what was asked, the date. */
const dayId = (storeId: string, key: string, date: string) => `${storeId}|${key}|${date}`;

/** Consecutive indices in runs: [1, 2, 3, 7, 8] gives [[1, 2, 3], [7, 8]]. */
function runsOf(indices: number[]): number[][] {
  const runs: number[][] = [];
  for (const i of indices) {
    const run = runs.at(-1);
    if (run && run[run.length - 1] === i - 1) run.push(i);
    else runs.push([i]);
  }
  return runs;
}

/** A computation answers every day it is asked for (keptDays lays each one out, empty or not). */
function unanswered(date: string): never {
  throw new Error(`availability: no answer computed for ${date}`);
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
