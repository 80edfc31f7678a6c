// Sliding-window budgets for sending sign-in codes: at most 5 an hour per email and 20 an hour per
// client address. In this process's memory by default; shared through Redis when REDIS_URL is set
// (as the request rate limits are, src/platform/http/rate-limit.ts), so several processes draw on one
// budget. Keys are keyed hashes, never an email or an address. Time comes from the service's clock.
import type { Redis } from 'ioredis';

export interface Budget {
  /** Takes one from the budget of key; when spent, how many seconds until one is free again. */
  take(
    key: string,
    max: number,
    windowMs: number,
    nowMs: number,
  ): Promise<{ ok: true } | { ok: false; retryAfterS: number }>;
}

export function memoryBudget(): Budget {
  const log = new Map<string, number[]>();
  return {
    async take(key, max, windowMs, nowMs) {
      const recent = (log.get(key) ?? []).filter((t) => t > nowMs - windowMs);
      if (recent.length >= max) {
        log.set(key, recent);
        return { ok: false, retryAfterS: Math.max(1, Math.ceil((recent[0] + windowMs - nowMs) / 1000)) };
      }
      recent.push(nowMs);
      log.set(key, recent);
      // Bounded: keys with nothing in the window are dropped as the map grows.
      if (log.size > 50_000) for (const [k, v] of log) if (!v.some((t) => t > nowMs - windowMs)) log.delete(k);
      return { ok: true };
    },
  };
}

// One round trip, atomic: drop what left the window, count, add when under the cap, else report the
// oldest entry (the moment one is free again).
const TAKE_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[3])
local n = redis.call('ZCARD', KEYS[1])
if n >= tonumber(ARGV[2]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, oldest[2]}
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, 0}`;

export function redisBudget(redis: Redis): Budget {
  let seq = 0;
  return {
    async take(key, max, windowMs, nowMs) {
      const member = `${nowMs}-${process.pid}-${seq++}-${Math.random().toString(36).slice(2, 8)}`;
      const [ok, oldest] = (await redis.eval(TAKE_SCRIPT, 1, `bbo-signin:${key}`, nowMs, max, windowMs, member)) as [
        number,
        string,
      ];
      if (ok === 1) return { ok: true };
      return { ok: false, retryAfterS: Math.max(1, Math.ceil((Number(oldest) + windowMs - nowMs) / 1000)) };
    },
  };
}
