// Embedded PostgreSQL (WebAssembly). One connection: transactions are serialised by PGlite itself.
import fs from 'node:fs';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Database, QueryResult, Row } from './port.ts';
import { valueParsers } from './value-parsers.ts';

export interface PgliteOptions {
  /** Directory for the data files; null keeps everything in memory. */
  dataDir: string | null;
  /** A data directory dump (from dumpDataDir) to start from instead of an empty cluster. */
  loadDataDir?: Blob;
  /**
   * false: PostgreSQL's WebAssembly stays on V8's baseline compiler (Liftoff) for the life of the
   * process. The optimising tier recompiles the hot functions shortly after start, and one of them
   * (about 100 KB of WebAssembly) takes some 640 MB of compiler memory for half a second: the
   * process's peak is about 900 MB with it and about 440 MB without, at 25-50% less throughput
   * (docs/performance/history/round-7.md). Default true.
   */
  wasmTierUp?: boolean;
}

// V8 reads these when it compiles a WebAssembly module, so they must be set before PGlite.create.
// They apply to the whole process, which has no other WebAssembly on a hot path.
function keepWasmOnBaselineCompiler(): void {
  v8.setFlagsFromString('--no-wasm-dynamic-tiering');
  v8.setFlagsFromString('--no-wasm-tier-up');
}

export async function openPglite(options: PgliteOptions): Promise<Database & { dump(): Promise<Blob> }> {
  if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true });
  if (options.wasmTierUp === false) keepWasmOnBaselineCompiler();
  const db = await PGlite.create({
    dataDir: options.dataDir ?? undefined,
    loadDataDir: options.loadDataDir,
    extensions: { btree_gin, btree_gist, pg_trgm },
    parsers: valueParsers,
  });
  await db.exec("SET TIME ZONE 'UTC'");

  const wrap = (result: { rows: unknown[]; affectedRows?: number }): QueryResult<any> => ({
    rows: result.rows as Row[],
    // PGlite reports affectedRows 0 for a SELECT: a statement that returned rows counts them.
    rowCount: result.rows.length > 0 ? result.rows.length : (result.affectedRows ?? 0),
  });

  return {
    engine: 'pglite',
    async query(sql, params) {
      return wrap(await db.query(sql, params as any[] | undefined));
    },
    async transaction(fn) {
      return db.transaction(async (tx) =>
        fn({ query: async (sql, params) => wrap(await tx.query(sql, params as any[] | undefined)) }),
      );
    },
    async exec(sql) {
      await db.exec(sql);
    },
    async ping() {
      await db.query('SELECT 1');
    },
    async close() {
      if (!db.closed) await db.close();
    },
    async dump() {
      // Flush everything to the data files first, so the dump holds every committed row.
      await db.exec('CHECKPOINT');
      return db.dumpDataDir('none') as Promise<Blob>;
    },
  };
}
