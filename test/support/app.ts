// A running app on a fresh database, driven through app.inject().
import { after } from 'node:test';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { fixedClock, type FixedClock } from '../../src/platform/clock.ts';
import type { Database } from '../../src/platform/db/port.ts';
import { createTokenService, type TokenService } from '../../src/platform/auth/tokens.ts';
import { engine, openTestDatabase } from './engine.ts';
import { Fixtures } from './fixtures.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const TEST_SECRET = 'test-secret-0123456789-0123456789-abcdef';

export interface TestApp {
  app: App;
  db: Database;
  /** Connection string of this test database. */
  url: string;
  clock: FixedClock;
  tokens: TokenService;
  config: Config;
  fx: Fixtures;
  engine: typeof engine;
  /** Builds a second app (its own pool) on the same database: a second server process's view. */
  sibling(): Promise<App>;
  /** Runs fn when this app closes (a stub server the test started for it, say). */
  onClose(fn: () => Promise<void>): void;
}

export interface TestAppOptions {
  now?: string;
  env?: Record<string, string>;
  extend?: (app: App) => Promise<void>;
  /** Builds the app on a wrapper of the test database (such as support/round-trips.ts's counter). */
  wrapDb?: (db: Database) => Database;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ AUTH_SECRET: TEST_SECRET, ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'silent', ...env });
}

/** Starts an app on a fresh database; it is closed when the test file ends. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = testConfig(options.env);
  const clock = fixedClock(options.now ?? '2026-06-01T09:00:00Z');
  const tokens = createTokenService(config);
  const testDb = await openTestDatabase();
  const app = await buildApp({
    config,
    db: options.wrapDb?.(testDb.db) ?? testDb.db,
    clock,
    tokens,
    logger: false,
    extend: options.extend,
  });
  const siblings: Array<{ app: App; close(): Promise<void> }> = [];
  const closers: Array<() => Promise<void>> = [];
  after(async () => {
    await app.close();
    for (const s of siblings) await s.close();
    await testDb.close();
    for (const fn of closers) await fn();
  });
  return {
    app,
    db: testDb.db,
    url: testDb.url,
    clock,
    tokens,
    config,
    fx: new Fixtures(testDb.db, tokens, clock),
    engine,
    async sibling() {
      const { openPg } = await import('../../src/platform/db/pg.adapter.ts');
      const db = openPg({ connectionString: testDb.url, poolSize: 20 });
      const other = await buildApp({ config, db, clock, tokens, logger: false });
      siblings.push({
        app: other,
        close: async () => {
          await other.close();
          await db.close();
        },
      });
      return other;
    },
    onClose(fn) {
      closers.push(fn);
    },
  };
}
