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
/** The settings opening the database needs (a part of config.ts's Config, which is passed whole). */
export interface DatabaseSettings {
  readonly databaseUrl: string | null;
  readonly dbPoolSize: number;
  readonly dbPreparedStatements: boolean;
  readonly dataDir: string;
  readonly logLevel: string;
  readonly embeddedSettings: Readonly<Record<string, string>>;
}

export async function openDatabase(
  config: DatabaseSettings,
  onError?: (err: Error) => void,
  options: OpenOptions = {},
): Promise<Database> {
  if (config.databaseUrl) {
    return openPg({
      connectionString: config.databaseUrl,
      poolSize: config.dbPoolSize,
      prepare: config.dbPreparedStatements,
      onError,
    });
  }
  const url = await embeddedUrl(config.dataDir, {
    logLevel: config.logLevel,
    join: options.join,
    settings: config.embeddedSettings,
  });
  return openPg({ connectionString: url, poolSize: config.dbPoolSize, onError });
}
