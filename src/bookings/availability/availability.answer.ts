// How an availability answer is laid out: by store-local day, each slot and each day serialised once
// when it is computed, and the body an answer sends kept with it (kept by availability.cache.ts).
// The notice and the horizon move with the clock, so they are applied here, as the answer is served.
import type { OfferedSlot } from './availability.repository.ts';

/** One slot of a kept day: its start, and its JSON as the answer shows it. */
export interface KeptSlot {
  at: number;
  json: string;
}

export interface KeptDay {
  date: string;
  slots: KeptSlot[];
  /** The whole day as the answer shows it. */
  json: string;
}

/** An answer as served: its days, every slot's start in order, and the last body sent. */
export interface KeptAnswer {
  days: readonly KeptDay[];
  starts: Float64Array;
  /** Roughly the body it sends. */
  bytes: number;
  /** The last body sent and what it was built for (servedBody, below). */
  served: { key: string; body: Buffer } | null;
}

const DAY_MS = 86_400_000;

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** A change spanning more days than this makes every day stale. */
const MAX_CHANGED_DAYS = 800;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The dates a change's [first, last] date pairs make stale, each widened by a day either side; null
 * (every day) for anything else: no pairs, an unbounded block, or too many days.
 */
export function staleDates(pairs: [string, string][] | null): string[] | null {
  if (!pairs) return null;
  const dates = new Set<string>();
  for (const [first, last] of pairs) {
    if (!DATE.test(first ?? '') || !DATE.test(last ?? '') || last < first) return null;
    for (let d = addDays(first, -1), end = addDays(last, 1); d <= end; d = addDays(d, 1)) {
      dates.add(d);
      if (dates.size > MAX_CHANGED_DAYS) return null;
    }
  }
  return [...dates];
}

const dayJson = (date: string, slots: readonly KeptSlot[]) =>
  `{"date":"${date}","slots":[${slots.map((s) => s.json).join(',')}]}`;

/** The days fromDate..toDate (count of them: days) from the statement's slots, each serialised once. */
export function keptDays(slots: readonly OfferedSlot[], fromDate: string, days: number): KeptDay[] {
  const byDay = new Map<string, KeptSlot[]>();
  for (let i = 0; i < days; i++) byDay.set(addDays(fromDate, i), []);
  for (const s of slots) {
    // The fields in the order of the Slot schema (availability.schemas.ts).
    const json = JSON.stringify({
      starts_at: s.starts_at,
      ends_at: s.ends_at,
      local_time: s.local_time,
      unit_ids: s.unit_ids,
    });
    byDay.get(s.date)?.push({ at: Date.parse(s.starts_at), json });
  }
  return [...byDay].map(([date, daySlots]) => ({ date, slots: daySlots, json: dayJson(date, daySlots) }));
}

/** Roughly what a kept day holds: its slots, their JSON and the day's own JSON. */
export const dayBytes = (day: KeptDay) => day.json.length * 2 + day.slots.length * 48;

/** An answer laid out from its days (kept, or computed for it). */
export function answerOf(days: readonly KeptDay[]): KeptAnswer {
  let bytes = 0;
  let n = 0;
  for (const day of days) {
    bytes += day.json.length;
    n += day.slots.length;
  }
  const starts = new Float64Array(n);
  let i = 0;
  for (const day of days) for (const slot of day.slots) starts[i++] = slot.at;
  return { days, starts, bytes, served: null };
}

/** The answer for the days fromDate..toDate from the statement's slots. */
export const keptAnswer = (slots: readonly OfferedSlot[], fromDate: string, days: number): KeptAnswer =>
  answerOf(keptDays(slots, fromDate, days));

/**
 * The answer as sent, keeping only the slots that start in [earliest, latest). Slots are in time
 * order across the days, so what is kept is one run of them, named by its ends: the same run and
 * head give the same bytes, kept with the answer, so a kept answer is sent again without building
 * anything (the run moves only when the clock passes a slot).
 */
export function servedBody(answer: KeptAnswer, head: AnswerHead, earliest: number, latest: number): Buffer {
  const from = firstAtOrAfter(answer, earliest);
  const to = firstAtOrAfter(answer, latest);
  const key = `${from}:${to}:${head.store_id}:${head.timezone}:${head.service_id}:${head.duration_min}`;
  if (answer.served?.key === key) return answer.served.body;
  const body = Buffer.from(answerJson(head, servedDays(answer, earliest, latest)));
  answer.served = { key, body };
  return body;
}

/** How many of the answer's slots start before t. */
function firstAtOrAfter(answer: KeptAnswer, t: number): number {
  const ats = answer.starts;
  let lo = 0;
  let hi = ats.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ats[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The answer's days as JSON, keeping only the slots that start in [earliest, latest). */
function servedDays(answer: KeptAnswer, earliest: number, latest: number): string {
  return answer.days
    .map((day) => {
      const slots = day.slots;
      const whole = slots.length === 0 || (slots[0].at >= earliest && slots[slots.length - 1].at < latest);
      return whole
        ? day.json
        : dayJson(
            day.date,
            slots.filter((s) => s.at >= earliest && s.at < latest),
          );
    })
    .join(',');
}

export interface AnswerHead {
  store_id: string;
  timezone: string;
  service_id: string;
  duration_min: number;
}

/** The whole answer's JSON, in the field order of AvailabilityResponse. */
function answerJson(head: AnswerHead, days: string): string {
  const { store_id, timezone, service_id, duration_min } = head;
  return `${JSON.stringify({ store_id, timezone, service_id, duration_min }).slice(0, -1)},"days":[${days}]}`;
}
