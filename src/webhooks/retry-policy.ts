// When a failed attempt is tried again, and which answers end the schedule.
//
// Attempt 1 is immediate; after a failed attempt n the next waits schedule[n-1] (the Standard
// Webhooks example schedule by default: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h), with
// +-10% jitter so receivers that come back are not hit by every delivery in the same second. After
// the last delay's attempt fails, the delivery is failed (a manual retry or a replay can restart it).

/** 429, 502 and 504 may say when to come back (Retry-After); we wait at least that long. */
const RETRY_AFTER_STATUSES = new Set([429, 502, 504]);
/** A Retry-After further out than the longest scheduled delay is capped to it. */
const MAX_RETRY_AFTER_MS = 24 * 3600_000;

export type Random = () => number;

/** The delay before the attempt after attempt `attempt` (1-based), or null when the schedule is spent. */
export function retryDelayMs(
  schedule: readonly number[],
  attempt: number,
  random: Random = Math.random,
): number | null {
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.9 + random() * 0.2));
}

/** Retry-After as ms (delta seconds or an HTTP date), for the statuses that honour it; else null. */
export function retryAfterMs(status: number | null, header: string | null, now: Date): number | null {
  if (status === null || !RETRY_AFTER_STATUSES.has(status) || !header) return null;
  const trimmed = header.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return null;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** When the next attempt is due after a failed one, or null when the delivery has failed for good. */
export function nextAttemptAt(
  schedule: readonly number[],
  attempt: number,
  now: Date,
  retryAfter: number | null,
  random?: Random,
): Date | null {
  const delay = retryDelayMs(schedule, attempt, random);
  if (delay === null) return null;
  // Retry-After can only push the next attempt later than the schedule would.
  return new Date(now.getTime() + Math.max(delay, retryAfter ?? 0));
}
