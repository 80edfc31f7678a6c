// How background work (the webhook and messages workers inside `npm start`) gives way to requests,
// parsed from the environment record config.ts hands over (src/platform/background/README.md).
export interface BackgroundConfig {
  /** BACKGROUND_YIELD (default true): the workers give way to requests in flight and to event-loop lag. false: they run flat out (the earlier behaviour; kept for before/after benches). */
  readonly yieldToRequests: boolean;
  /** BACKGROUND_MAX_WAIT_MS (default 250): the longest a step waits for a quiet moment, so a busy front desk never starves the backlog. */
  readonly maxWaitMs: number;
  /** BACKGROUND_LAG_MS (default 20): event-loop delay (p99 over the last half second) above which background steps wait. */
  readonly lagMs: number;
  /** BACKGROUND_PIECE_WAIT_MS (default 20): inside a step, the longest a piece of CPU work waits for the requests in flight to be answered (0: one event-loop turn only). */
  readonly pieceWaitMs: number;
}

export function parseBackgroundConfig(
  env: Record<string, string | undefined>,
  fail: (message: string) => never,
): BackgroundConfig {
  const raw = (env.BACKGROUND_YIELD ?? 'true').trim().toLowerCase();
  if (!['true', 'false', '1', '0'].includes(raw)) fail('BACKGROUND_YIELD must be true or false');
  const int = (name: string, fallback: number, min: number, max: number) => {
    const v = env[name]?.trim();
    if (!v) return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) fail(`${name} must be a whole number from ${min} to ${max}`);
    return n;
  };
  return Object.freeze({
    yieldToRequests: raw === 'true' || raw === '1',
    maxWaitMs: int('BACKGROUND_MAX_WAIT_MS', 250, 0, 60_000),
    lagMs: int('BACKGROUND_LAG_MS', 20, 1, 10_000),
    pieceWaitMs: int('BACKGROUND_PIECE_WAIT_MS', 20, 0, 10_000),
  });
}
