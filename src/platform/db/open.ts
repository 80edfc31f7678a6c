import path from 'node:path';
import type { Config } from '../../config.ts';
import type { Database } from './port.ts';
import { openPglite } from './pglite.adapter.ts';
import { openPg } from './pg.adapter.ts';

/** DATABASE_URL selects the PostgreSQL server; otherwise the embedded engine stores its files under DATA_DIR. */
export async function openDatabase(config: Config, onError?: (err: Error) => void): Promise<Database> {
  if (config.databaseUrl) {
    return openPg({ connectionString: config.databaseUrl, poolSize: config.dbPoolSize, prepare: config.dbPreparedStatements, onError });
  }
  return openPglite({ dataDir: path.join(config.dataDir, 'pglite'), wasmTierUp: config.embeddedWasmTierUp });
}
