import type { Config } from '../../config.ts';
import type { Database } from './port.ts';
import { openPg } from './pg.adapter.ts';
import { embeddedUrl } from './embedded-postgres.adapter.ts';

export interface OpenOptions {
  /** Use the embedded server another process already runs on DATA_DIR (the demo, backups). */
  join?: boolean;
}

/**
 * DATABASE_URL selects the PostgreSQL server; otherwise the embedded engine: real PostgreSQL in a
 * child process, its files under DATA_DIR/postgres (docs/decisions/embedded-engine.md).
 */
export async function openDatabase(config: Config, onError?: (err: Error) => void, options: OpenOptions = {}): Promise<Database> {
  if (config.databaseUrl) {
    return openPg({ connectionString: config.databaseUrl, poolSize: config.dbPoolSize, prepare: config.dbPreparedStatements, onError });
  }
  const url = await embeddedUrl(config.dataDir, { logLevel: config.logLevel, join: options.join, settings: config.embeddedSettings });
  return openPg({ connectionString: url, poolSize: config.dbPoolSize, onError });
}
