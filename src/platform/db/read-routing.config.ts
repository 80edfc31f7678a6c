// Settings of the read replica (read-routing.ts). Parsed once from the environment record that
// config.ts hands over; nothing here reads process.env.
export interface ReadRoutingConfig {
  /** A streaming replica of DATABASE_URL's server (DATABASE_READ_URL); null reads everything from the primary. */
  readonly readUrl: string | null;
  /** Connections to the replica per process (DB_READ_POOL_SIZE). */
  readonly poolSize: number | null;
  /** A replica further behind than this (ms) is skipped until it catches up (DB_READ_MAX_LAG_MS). */
  readonly maxLagMs: number;
  /** How long a write's position binds later reads of its caller and its store (DB_READ_STICKY_MS; GitLab: 30 s). */
  readonly stickyMs: number;
  /** How often the replica's replay position is asked for (DB_READ_POLL_MS). */
  readonly pollMs: number;
}

type Fail = (message: string) => never;

function int(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
  fail: Fail,
): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    fail(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  return value;
}

export function parseReadRoutingConfig(
  env: Record<string, string | undefined>,
  databaseUrl: string | null,
  fail: Fail,
): ReadRoutingConfig {
  const readUrl = env.DATABASE_READ_URL?.trim() || null;
  if (readUrl !== null) {
    if (!/^postgres(ql)?:\/\//.test(readUrl)) fail('DATABASE_READ_URL must be a postgres:// or postgresql:// URL');
    if (databaseUrl === null)
      fail(
        'DATABASE_READ_URL needs DATABASE_URL: a replica is a copy of a PostgreSQL server, not of the embedded engine',
      );
  }
  const stickyMs = int(env, 'DB_READ_STICKY_MS', 30_000, 1_000, 3_600_000, fail);
  const maxLagMs = int(env, 'DB_READ_MAX_LAG_MS', 5_000, 100, 3_600_000, fail);
  // A write older than the stickiness is trusted to the lag bound alone: the bound must be shorter.
  if (maxLagMs >= stickyMs) fail(`DB_READ_MAX_LAG_MS (${maxLagMs}) must be less than DB_READ_STICKY_MS (${stickyMs})`);
  return Object.freeze({
    readUrl,
    poolSize: env.DB_READ_POOL_SIZE?.trim() ? int(env, 'DB_READ_POOL_SIZE', 16, 1, 500, fail) : null,
    maxLagMs,
    stickyMs,
    pollMs: int(env, 'DB_READ_POLL_MS', 100, 10, 10_000, fail),
  });
}
