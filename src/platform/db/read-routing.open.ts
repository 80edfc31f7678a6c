// Opens the read replica named by DATABASE_READ_URL (null when none is): its own pool, the write
// positions (in Redis too when REDIS_URL is set), and the router that polls it.
import type { Database } from './port.ts';
import { openPg } from './pg.adapter.ts';
import { openRedis } from '../redis.ts';
import { ReadRouter } from './read-routing.ts';
import { WritePositions } from './write-positions.ts';
import type { ReadRoutingConfig } from './read-routing.config.ts';

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface OpenedReadRouter {
  router: ReadRouter;
  replica: Database & { pool: import('pg').Pool };
  close(): Promise<void>;
}

/** The settings the read router needs (a part of config.ts's Config, which is passed whole). */
export interface ReadRouterSettings {
  readonly readRouting: ReadRoutingConfig;
  readonly dbPoolSize: number;
  readonly dbPreparedStatements: boolean;
  readonly redisUrl: string | null;
}

export async function openReadRouter(
  config: ReadRouterSettings,
  primary: Database,
  log: Log,
): Promise<OpenedReadRouter | null> {
  const settings = config.readRouting;
  if (!settings.readUrl) return null;
  const replica = openPg({
    connectionString: settings.readUrl,
    poolSize: settings.poolSize ?? config.dbPoolSize,
    prepare: config.dbPreparedStatements,
    onError: (err) => log.warn({ err: { message: err.message } }, 'read replica: idle connection lost'),
  });
  const redis = config.redisUrl
    ? await openRedis(config.redisUrl, (err) =>
        log.warn({ err: { message: err.message } }, 'read routing: redis error'),
      )
    : null;
  const router = new ReadRouter({
    primary,
    replica,
    positions: new WritePositions({ stickyMs: settings.stickyMs, redis }),
    maxLagMs: settings.maxLagMs,
    pollMs: settings.pollMs,
    onStateChange: (state, reason) =>
      (state.up ? log.info : log.warn).call(
        log,
        { up: state.up, lagMs: state.lagMs, reason },
        state.up ? 'read replica in use' : 'read replica skipped: reads go to the primary',
      ),
  });
  await router.start();
  return {
    router,
    replica,
    async close() {
      await router.stop();
      await replica.close().catch(() => {});
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
