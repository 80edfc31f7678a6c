// The schema at start, in two parts, both under one transaction-scoped advisory lock so processes
// starting at once apply each step exactly once (the second waits, then sees it recorded and skips):
//  1. numbered .sql migrations (tables, indexes, constraints, data changes), applied in order, each
//     once, in its own transaction, recorded in schema_migrations;
//  2. the SQL functions and triggers of db/functions/ (functions.ts), after them, in one
//     transaction: each file again whenever its checksum changed, recorded in schema_functions.
// Then any function of the public schema that no file defines is reported (warned and returned).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './port.ts';
import {
  applyFunctionFiles,
  FUNCTIONS_TABLE,
  readFunctionFiles,
  unownedFunctions,
  type FunctionFile,
} from './functions.ts';
import { splitStatements } from './statements.ts';

export { splitStatements };

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../migrations');

// Arbitrary constant shared by every process of this service.
const MIGRATION_LOCK_KEY = 727_401_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export interface MigrateOptions {
  migrations?: Migration[];
  functions?: FunctionFile[];
  log?: { warn(obj: object, msg: string): void };
}

export interface MigrateReport {
  /** Numbered migrations applied by this call. */
  applied: string[];
  /** db/functions/ files (re-)applied by this call. */
  functions: string[];
  /** Functions of the public schema that no db/functions/ file defines (signatures). */
  unowned: string[];
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .map((file) => ({
      version: Number(file.split('_')[0]),
      name: file,
      sql: fs.readFileSync(path.join(dir, file), 'utf8'),
    }))
    .sort((a, b) => a.version - b.version);
}

// A migration's statement (a backfill, an index over a large table) may take minutes on a large
// database, where a request's statement gets 15 s: it waits up to an hour.
const MIGRATION_STATEMENT = { readTimeoutMs: 3_600_000 };

export async function migrate(db: Database, options: MigrateOptions = {}): Promise<MigrateReport> {
  const migrations = options.migrations ?? readMigrations();
  const functions = options.functions ?? readFunctionFiles();
  const seen = new Set<number>();
  for (const m of migrations) {
    if (seen.has(m.version)) throw new Error(`Two migrations share version ${m.version}`);
    seen.add(m.version);
  }
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    await tx.query(FUNCTIONS_TABLE);
  });
  const applied: string[] = [];
  for (const m of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const existing = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (existing.rowCount > 0) return false;
      for (const statement of splitStatements(m.sql)) await tx.query(statement, undefined, MIGRATION_STATEMENT);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m.name);
  }
  const reapplied = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    return applyFunctionFiles(tx, functions);
  });
  const unowned = await unownedFunctions(db, functions);
  if (unowned.length) {
    options.log?.warn(
      { functions: unowned },
      'functions in the database that no db/functions/ file defines (drop them in a numbered migration, or restore their file)',
    );
  }
  return { applied, functions: reapplied, unowned };
}
