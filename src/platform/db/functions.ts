// The SQL functions and their triggers live in db/functions/, one family a file, each showing only
// the current text (Flyway's repeatable migrations, graphile-migrate's current.sql). migrate.ts
// applies them after the numbered migrations, in the order db/functions/ORDER states, each file
// again only when its sha256 changed, recorded in schema_functions. Every statement in a file is
// therefore re-runnable: CREATE OR REPLACE FUNCTION, CREATE OR REPLACE TRIGGER (docs/decisions/sql-functions.md).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Queryable, Tx } from './port.ts';
import { splitStatements } from './statements.ts';

export const FUNCTIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../db/functions');

export interface FunctionFile {
  file: string;
  sql: string;
  checksum: string;
}

export function functionFile(file: string, sql: string): FunctionFile {
  return { file, sql, checksum: crypto.createHash('sha256').update(sql).digest('hex') };
}

/** The files of dir in the order its ORDER manifest lists them; a file missing from either side is an error. */
export function readFunctionFiles(dir = FUNCTIONS_DIR): FunctionFile[] {
  const order = fs
    .readFileSync(path.join(dir, 'ORDER'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const present = fs.readdirSync(dir).filter((file) => file.endsWith('.sql'));
  const unlisted = present.filter((file) => !order.includes(file));
  const missing = order.filter((file) => !present.includes(file));
  if (unlisted.length || missing.length || new Set(order).size !== order.length) {
    throw new Error(
      `db/functions/ORDER must list each .sql file once (unlisted: ${unlisted.join(', ') || 'none'}; missing: ${missing.join(', ') || 'none'})`,
    );
  }
  return order.map((file) => functionFile(file, fs.readFileSync(path.join(dir, file), 'utf8')));
}

export const FUNCTIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_functions (
  file text PRIMARY KEY,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/**
 * Applies the files whose checksum differs from the recorded one, in order, inside the caller's
 * transaction (which holds the migration lock), and forgets files that no longer exist.
 * Returns the files applied.
 */
export async function applyFunctionFiles(tx: Tx, files: FunctionFile[]): Promise<string[]> {
  const recorded = await tx.query<{ file: string; checksum: string }>('SELECT file, checksum FROM schema_functions');
  const known = new Map(recorded.rows.map((r) => [r.file, r.checksum]));
  const applied: string[] = [];
  for (const f of files) {
    if (known.get(f.file) === f.checksum) continue;
    for (const statement of splitStatements(f.sql)) await tx.query(statement);
    await tx.query(
      `INSERT INTO schema_functions (file, checksum) VALUES ($1, $2)
       ON CONFLICT (file) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = now()`,
      [f.file, f.checksum],
    );
    applied.push(f.file);
  }
  await tx.query('DELETE FROM schema_functions WHERE NOT (file = ANY($1::text[]))', [files.map((f) => f.file)]);
  return applied;
}

/** How many definitions of each function name the files hold (comments ignored). */
export function definedFunctions(files: FunctionFile[]): Map<string, number> {
  const names = new Map<string, number>();
  const create = /\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:FUNCTION|PROCEDURE)\s+(?:public\.)?"?([A-Za-z_][\w$]*)"?\s*\(/gi;
  for (const f of files) {
    for (const match of f.sql.replace(/--.*$/gm, '').matchAll(create)) {
      const name = match[1].toLowerCase();
      names.set(name, (names.get(name) ?? 0) + 1);
    }
  }
  return names;
}

/**
 * The functions of the public schema that no file defines (extensions' own excluded): left behind
 * when a definition was deleted from its file. Reported, never dropped (docs/decisions/sql-functions.md).
 * A name with more definitions in the database than in the files (an old overload) reports all of them.
 */
export async function unownedFunctions(q: Queryable, files: FunctionFile[]): Promise<string[]> {
  const defined = definedFunctions(files);
  const rows = await q.query<{ name: string; signature: string }>(
    `SELECT p.proname AS name, p.oid::regprocedure::text AS signature
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = 'public'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d
                         WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
      ORDER BY 2`,
  );
  const count = new Map<string, number>();
  for (const r of rows.rows) count.set(r.name, (count.get(r.name) ?? 0) + 1);
  return rows.rows.filter((r) => (count.get(r.name) ?? 0) > (defined.get(r.name) ?? 0)).map((r) => r.signature);
}
