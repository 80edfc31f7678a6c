// The last write position known for each caller and each store, for stickiness ms after the write
// (GitLab's 30 s). Kept in this process; with REDIS_URL also in Redis, so a read that lands on
// another process knows about a write this one made. Only ever raised: two writers racing cannot
// lower a store's position (the Redis script keeps the larger one).
import type { Redis } from 'ioredis';
import { fromSortable, maxLsn, sortableLsn } from './wal-position.ts';

const MAX_KEYS = 100_000;
const PREFIX = 'bbo:wal:';

// KEYS[i]: a key; ARGV[1]: the ttl in ms; ARGV[i+1]: the position as 16 hex digits (string order is numeric order).
const RAISE = `
for i, key in ipairs(KEYS) do
  local cur = redis.call('GET', key)
  if (not cur) or cur < ARGV[i + 1] then redis.call('SET', key, ARGV[i + 1], 'PX', ARGV[1])
  else redis.call('PEXPIRE', key, ARGV[1]) end
end
return 1`;

export class WritePositions {
  private readonly local = new Map<string, { lsn: bigint; until: number }>();
  private readonly stickyMs: number;
  private readonly redis: Redis | null;
  private readonly now: () => number;

  constructor(options: { stickyMs: number; redis?: Redis | null; now?: () => number }) {
    this.stickyMs = options.stickyMs;
    this.redis = options.redis ?? null;
    this.now = options.now ?? Date.now;
  }

  /** Records that keys have written up to lsn. Redis trouble is not the client's: the local record stands. */
  async remember(keys: readonly string[], lsn: bigint): Promise<void> {
    const until = this.now() + this.stickyMs;
    for (const key of keys) {
      const old = this.local.get(key);
      this.local.delete(key);
      this.local.set(key, { lsn: old && old.until > this.now() && old.lsn > lsn ? old.lsn : lsn, until });
    }
    for (const oldest of this.local.keys()) {
      if (this.local.size <= MAX_KEYS) break;
      this.local.delete(oldest);
    }
    if (this.redis && keys.length) {
      const value = sortableLsn(lsn);
      await this.redis
        .eval(RAISE, keys.length, ...keys.map((k) => PREFIX + k), String(this.stickyMs), ...keys.map(() => value))
        .catch(() => {});
    }
  }

  /**
   * The highest position any of keys must see, or null when none wrote within the stickiness.
   * When Redis cannot answer, reads go to the primary (unknown is answered as "newer than any replica").
   */
  async required(keys: readonly string[]): Promise<bigint | null | 'unknown'> {
    let lsn: bigint | null = null;
    const now = this.now();
    for (const key of keys) {
      const hit = this.local.get(key);
      if (hit && hit.until > now) lsn = maxLsn(lsn, hit.lsn);
    }
    if (!this.redis || !keys.length) return lsn;
    try {
      const values = await this.redis.mget(...keys.map((k) => PREFIX + k));
      for (const v of values) lsn = maxLsn(lsn, fromSortable(v));
      return lsn;
    } catch {
      return 'unknown';
    }
  }
}
