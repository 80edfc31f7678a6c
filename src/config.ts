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
  readonly webhooks: {
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
  };
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

export interface MessagesConfig {
  /** smtp:// or smtps:// with credentials in the URL; null keeps email in the local mailbox. */
  readonly smtpUrl: string | null;
  readonly smtpMaxConnections: number;
  readonly mailFrom: string;
  /** Twilio-shaped SMS API; null (no SID, token or sender) keeps texts in the local mailbox. */
  readonly sms: {
    readonly baseUrl: string;
    readonly accountSid: string;
    readonly authToken: string;
    readonly from: string;
  } | null;
  /** Run the planner and sender loop inside this process. */
  readonly worker: boolean;
  readonly pollMs: number;
  readonly leaseMs: number;
  readonly retryBaseMs: number;
  readonly maxAttempts: number;
  readonly batch: number;
  readonly concurrency: number;
}

export class ConfigError extends Error {}

const DEV_SECRET = 'dev-only-secret-change-me-0123456789abcdef';

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  }
  return value;
}

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

function text(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? null : raw.trim();
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

// The Standard Webhooks example schedule: after the immediate attempt, 5 s, 5 min, 30 min, 2 h, 5 h,
// 10 h, 14 h, 20 h and 24 h (about 3 days in all).
export const STANDARD_RETRY_SCHEDULE_MS = Object.freeze([
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000,
]);

function schedule(env: NodeJS.ProcessEnv, name: string): readonly number[] {
  const raw = text(env, name);
  if (raw === null) return STANDARD_RETRY_SCHEDULE_MS;
  const values = raw.split(',').map((v) => Number(v.trim()));
  if (values.length > 20 || values.some((v) => !Number.isInteger(v) || v < 0 || v > 7 * 86_400_000)) {
    throw new ConfigError(`${name} must be up to 20 comma-separated delays in ms (0 to 7 days each) (got "${raw}")`);
  }
  return Object.freeze(values);
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

  const smtpUrl = text(env, 'SMTP_URL');
  if (smtpUrl !== null && !/^smtps?:\/\/[^/]/.test(smtpUrl))
    throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL');
  const mailFrom = text(env, 'MAIL_FROM') ?? 'Bookings <bookings@localhost>';
  if (!/@[A-Za-z0-9.-]+>?$/.test(mailFrom))
    throw new ConfigError('MAIL_FROM must be an email address, optionally as "Name <address>"');
  const smsUrl = text(env, 'SMS_API_URL') ?? 'https://api.twilio.com';
  if (!/^https?:\/\//.test(smsUrl)) throw new ConfigError('SMS_API_URL must be an http(s) URL');
  const smsSid = text(env, 'SMS_ACCOUNT_SID');
  const smsToken = text(env, 'SMS_AUTH_TOKEN');
  const smsFrom = text(env, 'SMS_FROM');
  const smsSet = [smsSid, smsToken, smsFrom].filter((v) => v !== null).length;
  if (smsSet !== 0 && smsSet !== 3)
    throw new ConfigError('SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM are set together or not at all');

  return Object.freeze({
    production,
    port: int(env, 'PORT', 3000, 0, 65535),
    host: text(env, 'HOST') ?? '127.0.0.1',
    databaseUrl,
    readRouting: parseReadRoutingConfig(env, databaseUrl, (message) => {
      throw new ConfigError(message);
    }),
    metrics: parseMetricsConfig(env, (message) => {
      throw new ConfigError(message);
    }),
    tracing: parseTracingConfig(env, (message) => {
      throw new ConfigError(message);
    }),
    background: parseBackgroundConfig(env, (message) => {
      throw new ConfigError(message);
    }),
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
    trustProxy: parseTrustProxy(env.TRUST_PROXY, (message) => {
      throw new ConfigError(message);
    }),
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
    webhooks: Object.freeze({
      requireHttps: production,
      allowPrivateTargets: flag(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
      retryScheduleMs: schedule(env, 'WEBHOOK_RETRY_SCHEDULE_MS'),
      endpointConcurrency: int(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 16, 1, 1000),
      workerConcurrency: int(env, 'WEBHOOK_WORKER_CONCURRENCY', 128, 1, 10_000),
      pollMs: int(env, 'WEBHOOK_POLL_MS', 100, 10, 60_000),
      timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 500, 60_000),
    }),
    corsOrigins: Object.freeze(origins(env, 'CORS_ORIGINS')),
    bookingPage: parseBookingPageConfig(env, int(env, 'PORT', 3000, 0, 65535), (message) => {
      throw new ConfigError(message);
    }),
    staff: parseStaffConfig(
      env,
      parseBookingPageConfig(env, int(env, 'PORT', 3000, 0, 65535), (message) => {
        throw new ConfigError(message);
      }).publicUrl,
      (name, fallback, min, max) => int(env, name, fallback, min, max),
    ),
    oidc: parseOidcConfig(env, (message) => {
      throw new ConfigError(message);
    }),
    messages: Object.freeze({
      smtpUrl,
      smtpMaxConnections: int(env, 'SMTP_MAX_CONNECTIONS', 5, 1, 100),
      mailFrom,
      sms:
        smsSet === 3
          ? Object.freeze({ baseUrl: smsUrl, accountSid: smsSid!, authToken: smsToken!, from: smsFrom! })
          : null,
      worker: flag(env, 'MESSAGES_WORKER', true),
      pollMs: int(env, 'MESSAGES_POLL_MS', 1000, 10, 600_000),
      leaseMs: int(env, 'MESSAGES_LEASE_MS', 120_000, 1000, 3_600_000),
      retryBaseMs: int(env, 'MESSAGES_RETRY_BASE_MS', 30_000, 10, 3_600_000),
      maxAttempts: int(env, 'MESSAGES_MAX_ATTEMPTS', 12, 1, 100),
      batch: int(env, 'MESSAGES_BATCH', 100, 1, 1000),
      concurrency: int(env, 'MESSAGES_CONCURRENCY', 20, 1, 200),
    }),
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
