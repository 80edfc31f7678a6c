// Configuration is read from the environment once, validated, and frozen.
// Nothing else in the codebase reads process.env.
import path from 'node:path';
import { parseBookingPageConfig, type BookingPageConfig } from './booking-page/booking-page.config.ts';
import { parseReadRoutingConfig, type ReadRoutingConfig } from './platform/db/read-routing.config.ts';
import { parseMetricsConfig, type MetricsConfig } from './platform/metrics/metrics.config.ts';
import { parseTracingConfig, type TracingConfig } from './platform/tracing/tracing.config.ts';
import { parseBackgroundConfig, type BackgroundConfig } from './platform/background/background.config.ts';
import { parseStaffConfig, type StaffConfig } from './staff/staff.config.ts';
import { parseOidcConfig, type OidcConfig } from './staff/oidc/oidc.config.ts';
import { parseTrustProxy } from './platform/http/proxy.config.ts';
import { ConfigError, flag, int, text } from './platform/config/env-values.ts';
import { parseMessagesConfig, type MessagesConfig } from './notifications/messages/messages.config.ts';
import { parseWebhooksConfig, type WebhooksConfig } from './webhooks/webhooks.config.ts';

export { ConfigError };

export interface Config {
  /** NODE_ENV=production: no development secret, no development mailbox, https webhooks. */
  readonly production: boolean;
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string | null;
  /** The read replica and its routing (DATABASE_READ_URL, DB_READ_*: src/platform/db/read-routing.config.ts). */
  readonly readRouting: ReadRoutingConfig;
  /** GET /metrics (METRICS_TOKEN: src/platform/metrics/metrics.config.ts). */
  readonly metrics: MetricsConfig;
  /** OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT: src/platform/tracing/tracing.config.ts). */
  readonly tracing: TracingConfig;
  /** How the in-process workers give way to requests (BACKGROUND_*: src/platform/background/background.config.ts). */
  readonly background: BackgroundConfig;
  readonly dataDir: string;
  /** Extra settings for the embedded PostgreSQL (EMBEDDED_POSTGRES_SETTINGS="name=value,..."), over its small-machine defaults. */
  readonly embeddedSettings: Readonly<Record<string, string>>;
  readonly authSecret: string;
  readonly authJwksUrl: string | null;
  readonly authIssuer: string;
  readonly authAudience: string;
  readonly adminToken: string | null;
  readonly redisUrl: string | null;
  readonly logLevel: string;
  readonly rateLimits: {
    readonly globalPerMinute: number;
    readonly searchPerMinute: number;
    readonly preferencesPerMinute: number;
  };
  readonly bodyLimitBytes: number;
  /** The largest CSV an import accepts (its own limit: BODY_LIMIT_BYTES does not apply to it). */
  readonly importLimitBytes: number;
  /** Time to receive a whole request, body included (BODY_TIMEOUT_MS, 30 s): a body that never finishes is answered 408. */
  readonly bodyTimeoutMs: number;
  /** Proxies whose X-Forwarded-For gives the client's address (TRUST_PROXY); null ignores forwarded headers. */
  readonly trustProxy: readonly string[] | null;
  /** Live holds at one store per signed-in customer and per client address, at every door (src/bookings/holds/hold-caps.ts). */
  readonly holdCaps: { readonly perCustomer: number; readonly perAddress: number };
  readonly dbPoolSize: number;
  /** Named prepared statements on the PostgreSQL server (off behind a pooler that cannot keep them). */
  readonly dbPreparedStatements: boolean;
  /** Memory for kept availability answers, in MiB (0: every search computes afresh). */
  readonly availabilityCacheMb: number;
  readonly events: {
    /** How often the live stream's pump reads the feed (ms). */
    readonly streamPollMs: number;
    /** The live stream's heartbeat comment interval (ms; at most 15 s). */
    readonly streamHeartbeatMs: number;
  };
  /** The webhook worker (dispatcher and deliveries) runs inside `npm start` unless this is false. */
  readonly workerEnabled: boolean;
  /** Outgoing webhooks: targets, retries, concurrency (src/webhooks/webhooks.config.ts). */
  readonly webhooks: WebhooksConfig;
  /** Origins allowed to call the customer operations from a browser, for every store (plus each store's own list). */
  readonly corsOrigins: readonly string[];
  /** Customer messages (src/notifications/): channels and the sender loop. */
  readonly messages: MessagesConfig;
  /** The shop's booking page (src/booking-page/). */
  readonly bookingPage: BookingPageConfig;
  /** Staff accounts: session lifetimes and the cookie (src/staff/). */
  readonly staff: StaffConfig;
  /** Staff sign-in through the shop's identity provider (OIDC_*); null when off (src/staff/oidc/). */
  readonly oidc: OidcConfig | null;
}

const DEV_SECRET = 'dev-only-secret-change-me-0123456789abcdef';

/** "name=value,name=value": PostgreSQL setting names (an extension's own as ext.name), values without commas or quotes. */
function settingsList(env: NodeJS.ProcessEnv, name: string): Readonly<Record<string, string>> {
  const raw = text(env, name);
  if (!raw) return Object.freeze({});
  const pairs = raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => /^([a-z_]+(?:\.[a-z_]+)?)=([A-Za-z0-9_.:-]+)$/.exec(p));
  if (pairs.some((m) => !m))
    throw new ConfigError(
      `${name} must be comma-separated name=value PostgreSQL settings, like shared_buffers=16MB (got "${raw}")`,
    );
  return Object.freeze(Object.fromEntries(pairs.map((m) => [m![1], m![2]])));
}

// scheme://host[:port]; a wildcard is refused: nothing is open to every origin.
const ORIGIN = /^https?:\/\/[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

function origins(env: NodeJS.ProcessEnv, name: string): string[] {
  const raw = text(env, name);
  if (raw === null) return [];
  return [
    ...new Set(
      raw
        .split(',')
        .map((o) => o.trim().toLowerCase().replace(/\/$/, ''))
        .filter(Boolean)
        .map((o) => {
          if (!ORIGIN.test(o))
            throw new ConfigError(
              `${name} must be a comma-separated list of origins like https://shop.example (got "${o}")`,
            );
          return o;
        }),
    ),
  ];
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const authSecret = text(env, 'AUTH_SECRET') ?? (production ? null : DEV_SECRET);
  if (authSecret === null) throw new ConfigError('AUTH_SECRET is required when NODE_ENV=production');
  if (authSecret.length < 32) throw new ConfigError('AUTH_SECRET must be at least 32 characters');
  const databaseUrl = text(env, 'DATABASE_URL');
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const redisUrl = text(env, 'REDIS_URL');
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) throw new ConfigError('REDIS_URL must be a redis:// URL');
  const jwks = text(env, 'AUTH_JWKS_URL');
  if (jwks !== null && !/^https?:\/\//.test(jwks)) throw new ConfigError('AUTH_JWKS_URL must be an http(s) URL');
  const logLevel = text(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const adminToken = text(env, 'ADMIN_TOKEN');
  if (adminToken !== null && adminToken.length < 16)
    throw new ConfigError('ADMIN_TOKEN must be at least 16 characters');

  const messages = parseMessagesConfig(env);
  const fail = (message: string): never => {
    throw new ConfigError(message);
  };
  const bookingPage = parseBookingPageConfig(env, int(env, 'PORT', 3000, 0, 65535), fail);

  return Object.freeze({
    production,
    port: int(env, 'PORT', 3000, 0, 65535),
    host: text(env, 'HOST') ?? '127.0.0.1',
    databaseUrl,
    readRouting: parseReadRoutingConfig(env, databaseUrl, fail),
    metrics: parseMetricsConfig(env, fail),
    tracing: parseTracingConfig(env, fail),
    background: parseBackgroundConfig(env, fail),
    dataDir: path.resolve(text(env, 'DATA_DIR') ?? './data'),
    embeddedSettings: settingsList(env, 'EMBEDDED_POSTGRES_SETTINGS'),
    authSecret,
    authJwksUrl: jwks,
    authIssuer: text(env, 'AUTH_ISSUER') ?? 'bookings-back-office',
    authAudience: text(env, 'AUTH_AUDIENCE') ?? 'bookings-api',
    adminToken,
    redisUrl,
    logLevel,
    rateLimits: Object.freeze({
      globalPerMinute: int(env, 'RATE_LIMIT_GLOBAL_PER_MIN', 1200, 1, 10_000_000),
      searchPerMinute: int(env, 'RATE_LIMIT_SEARCH_PER_MIN', 120, 1, 10_000_000),
      preferencesPerMinute: int(env, 'RATE_LIMIT_PREFERENCES_PER_MIN', 60, 1, 10_000_000),
    }),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 256 * 1024, 1024, 50 * 1024 * 1024),
    importLimitBytes: int(env, 'IMPORT_LIMIT_BYTES', 20 * 1024 * 1024, 1024, 512 * 1024 * 1024),
    bodyTimeoutMs: int(env, 'BODY_TIMEOUT_MS', 30_000, 100, 600_000),
    trustProxy: parseTrustProxy(env.TRUST_PROXY, fail),
    holdCaps: Object.freeze({
      perCustomer: int(env, 'HOLDS_PER_CUSTOMER', 3, 1, 10_000_000),
      perAddress: int(env, 'HOLDS_PER_ADDRESS', 3, 1, 10_000_000),
    }),
    // The embedded PostgreSQL shares a small machine with the service: each connection is a process of its own.
    // Four measured as fast as eight for creates at full rate, with four fewer backends (docs/decisions/embedded-engine.md).
    dbPoolSize: int(env, 'DB_POOL_SIZE', databaseUrl ? 16 : 4, 1, 500),
    availabilityCacheMb: int(env, 'AVAILABILITY_CACHE_MB', 32, 0, 4096),
    dbPreparedStatements: flag(env, 'DB_PREPARED_STATEMENTS', true),
    events: Object.freeze({
      streamPollMs: int(env, 'EVENTS_STREAM_POLL_MS', 200, 10, 5000),
      streamHeartbeatMs: int(env, 'EVENTS_STREAM_HEARTBEAT_MS', 15_000, 10, 15_000),
    }),
    workerEnabled: flag(env, 'WORKER_ENABLED', true),
    webhooks: parseWebhooksConfig(env, production),
    corsOrigins: Object.freeze(origins(env, 'CORS_ORIGINS')),
    bookingPage,
    staff: parseStaffConfig(env, bookingPage.publicUrl, (name, fallback, min, max) =>
      int(env, name, fallback, min, max),
    ),
    oidc: parseOidcConfig(env, fail),
    messages,
  });
}

/** For a process entry: the config, or a one-line message and exit status 1 when it is invalid. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}

export function isDevSecret(config: Config): boolean {
  return config.authSecret === DEV_SECRET;
}
