// Outgoing webhooks' settings (WEBHOOK_*), parsed once with the rest of the configuration
// (src/config.ts): targets, the retry schedule, concurrency and time limits.
import { ConfigError, flag, int, text, type Env } from '../platform/config/env-values.ts';

export interface WebhooksConfig {
  /** Endpoint URLs must be https (on when NODE_ENV=production). */
  readonly requireHttps: boolean;
  /** Private, loopback and link-local targets allowed (tests and the demo only). */
  readonly allowPrivateTargets: boolean;
  /** Delay before each retry, in ms: attempt 1 is immediate, attempt n+1 waits retryScheduleMs[n-1]. */
  readonly retryScheduleMs: readonly number[];
  /** Attempts in flight at once to one endpoint, across all processes. */
  readonly endpointConcurrency: number;
  /** Attempts in flight at once in one process. */
  readonly workerConcurrency: number;
  /** How often an idle worker looks for new events and due deliveries. */
  readonly pollMs: number;
  /** One attempt's time limit (15 s). A claimed attempt's lease is twice this plus 2 s. */
  readonly timeoutMs: number;
}

// The Standard Webhooks example schedule: after the immediate attempt, 5 s, 5 min, 30 min, 2 h, 5 h,
// 10 h, 14 h, 20 h and 24 h (about 3 days in all).
export const STANDARD_RETRY_SCHEDULE_MS = Object.freeze([
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000,
]);

function schedule(env: Env, name: string): readonly number[] {
  const raw = text(env, name);
  if (raw === null) return STANDARD_RETRY_SCHEDULE_MS;
  const values = raw.split(',').map((v) => Number(v.trim()));
  if (values.length > 20 || values.some((v) => !Number.isInteger(v) || v < 0 || v > 7 * 86_400_000)) {
    throw new ConfigError(`${name} must be up to 20 comma-separated delays in ms (0 to 7 days each) (got "${raw}")`);
  }
  return Object.freeze(values);
}

/** `production` (NODE_ENV=production) requires https endpoints. */
export function parseWebhooksConfig(env: Env, production: boolean): WebhooksConfig {
  return Object.freeze({
    requireHttps: production,
    allowPrivateTargets: flag(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    retryScheduleMs: schedule(env, 'WEBHOOK_RETRY_SCHEDULE_MS'),
    endpointConcurrency: int(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 16, 1, 1000),
    workerConcurrency: int(env, 'WEBHOOK_WORKER_CONCURRENCY', 128, 1, 10_000),
    pollMs: int(env, 'WEBHOOK_POLL_MS', 100, 10, 60_000),
    timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 500, 60_000),
  });
}
