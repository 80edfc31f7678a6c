// Numbered .sql migrations, applied in order at start, each in its own transaction and recorded
// in schema_migrations. A transaction-scoped advisory lock makes two processes starting at once
// apply each migration exactly once: the second waits, then sees it recorded and skips it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './port.ts';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../migrations');

// Arbitrary constant shared by every process of this service.
const MIGRATION_LOCK_KEY = 727_401_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
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

export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
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
  });
  const applied: string[] = [];
  for (const m of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const existing = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (existing.rowCount > 0) return false;
      // Each file is split on a marker line so extensions and DDL run statement by statement
      // inside this transaction on both engines.
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m.name);
  }
  return applied;
}

/** Splits a migration on lines that end a statement with ";" (dollar-quoted bodies are kept whole). */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let inDollar = false;
  for (const line of sql.split('\n')) {
    const dollars = line.match(/\$\$/g)?.length ?? 0;
    if (dollars % 2 === 1) inDollar = !inDollar;
    current += line + '\n';
    if (!inDollar && /;\s*(--.*)?$/.test(line)) {
      if (current.replace(/--.*$/gm, '').trim()) out.push(current.trim());
      current = '';
    }
  }
  if (current.replace(/--.*$/gm, '').trim()) out.push(current.trim());
  return out;
}
