// Configuration is read from the environment once, validated, and frozen.
// Nothing else in the codebase reads process.env.
import path from 'node:path';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string | null;
  readonly dataDir: string;
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
  readonly dbPoolSize: number;
  /** Named prepared statements on the PostgreSQL server (off behind a pooler that cannot keep them). */
  readonly dbPreparedStatements: boolean;
  /** Origins allowed to call the customer operations from a browser, for every store (plus each store's own list). */
  readonly corsOrigins: readonly string[];
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

// scheme://host[:port]; a wildcard is refused: nothing is open to every origin.
const ORIGIN = /^https?:\/\/[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

function origins(env: NodeJS.ProcessEnv, name: string): string[] {
  const raw = text(env, name);
  if (raw === null) return [];
  return [...new Set(raw.split(',').map((o) => o.trim().toLowerCase().replace(/\/$/, '')).filter(Boolean).map((o) => {
    if (!ORIGIN.test(o)) throw new ConfigError(`${name} must be a comma-separated list of origins like https://shop.example (got "${o}")`);
    return o;
  }))];
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
  if (adminToken !== null && adminToken.length < 16) throw new ConfigError('ADMIN_TOKEN must be at least 16 characters');

  return Object.freeze({
    port: int(env, 'PORT', 3000, 0, 65535),
    host: text(env, 'HOST') ?? '127.0.0.1',
    databaseUrl,
    dataDir: path.resolve(text(env, 'DATA_DIR') ?? './data'),
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
    dbPoolSize: int(env, 'DB_POOL_SIZE', 16, 1, 500),
    dbPreparedStatements: flag(env, 'DB_PREPARED_STATEMENTS', true),
    corsOrigins: Object.freeze(origins(env, 'CORS_ORIGINS')),
  });
}

export function isDevSecret(config: Config): boolean {
  return config.authSecret === DEV_SECRET;
}
