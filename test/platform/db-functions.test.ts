// The SQL functions' one home (db/functions/, src/platform/db/functions.ts): a fresh database and
// one migrated before the move end with the same functions and triggers; a changed file is applied
// again alone; a function deleted from its file is reported, not dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { migrate, readMigrations, type Migration } from '../../src/platform/db/migrate.ts';
import {
  definedFunctions,
  functionFile,
  readFunctionFiles,
  FUNCTIONS_DIR,
  type FunctionFile,
} from '../../src/platform/db/functions.ts';
import { splitStatements } from '../../src/platform/db/statements.ts';
import type { Database, Queryable } from '../../src/platform/db/port.ts';
import { openPg } from '../../src/platform/db/pg.adapter.ts';
import { adminQuery, openTestDatabase, urlFor } from '../support/engine.ts';

let counter = 0;
/** An empty database on the server the engine under test runs (the embedded one or TEST_DATABASE_URL). */
async function openEmpty(): Promise<{ db: Database; close(): Promise<void> }> {
  const name = `bbo_test_fn_${process.pid}_${Date.now()}_${counter++}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const db = openPg({ connectionString: urlFor(name), poolSize: 2 });
  return {
    db,
    async close() {
      await db.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

function migrationsBeforeTheMove(): Migration[] {
  const file = path.join(import.meta.dirname, '../fixtures/migrations-09e18de.json.gz');
  const list: { name: string; sql: string }[] = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8'));
  return list.map((m) => ({ version: Number(m.name.split('_')[0]), name: m.name, sql: m.sql }));
}

/** Every function of the public schema (extensions' own excluded) and every user trigger, as text. */
async function definitions(q: Queryable): Promise<Map<string, string>> {
  const fns = await q.query<{ sig: string; def: string }>(
    `SELECT p.oid::regprocedure::text AS sig, pg_get_functiondef(p.oid) AS def
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = 'public'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')`,
  );
  const triggers = await q.query<{ name: string; def: string; enabled: string }>(
    `SELECT t.tgrelid::regclass::text || '.' || t.tgname AS name, pg_get_triggerdef(t.oid) AS def, t.tgenabled AS enabled
       FROM pg_trigger t WHERE NOT t.tgisinternal`,
  );
  return new Map([
    ...fns.rows.map((r) => [`function ${r.sig}`, r.def] as const),
    ...triggers.rows.map((r) => [`trigger ${r.name}`, `${r.def} [${r.enabled}]`] as const),
  ]);
}

test('a fresh database and one migrated before the move end with identical functions and triggers', async () => {
  const fresh = await openEmpty();
  const old = await openEmpty();
  try {
    const report = await migrate(fresh.db);
    assert.deepEqual(
      report.applied,
      readMigrations().map((m) => m.name),
    );
    assert.deepEqual(
      report.functions,
      readFunctionFiles().map((f) => f.file),
    );
    assert.deepEqual(report.unowned, []);

    // The schema as it was: its functions came from the numbered migrations, none from files.
    const before = await migrate(old.db, { migrations: migrationsBeforeTheMove(), functions: [] });
    assert.equal(before.applied.length, migrationsBeforeTheMove().length);
    const oldDefs = await definitions(old.db);
    assert.ok([...oldDefs.keys()].filter((k) => k.startsWith('function ')).length >= 36);

    const after = await migrate(old.db);
    const oldNames = new Set(migrationsBeforeTheMove().map((m) => m.name));
    assert.deepEqual(
      after.applied,
      readMigrations()
        .map((m) => m.name)
        .filter((n) => !oldNames.has(n)),
      'only migrations added since',
    );
    assert.deepEqual(
      after.functions,
      readFunctionFiles().map((f) => f.file),
    );
    assert.deepEqual(after.unowned, []);

    const a = await definitions(fresh.db);
    const b = await definitions(old.db);
    assert.deepEqual([...a.keys()].sort(), [...b.keys()].sort());
    // Every function and trigger of before the move is still there (functions added since are new),
    // but those a later migration drops by name (DROP FUNCTION ... CASCADE takes its triggers too).
    const dropped = readMigrations()
      .filter((m) => !oldNames.has(m.name))
      .flatMap((m) => [...m.sql.matchAll(/DROP FUNCTION IF EXISTS (\w+\([^)]*\))/g)].map((x) => `function ${x[1]}`));
    const gone = [...oldDefs.keys()].filter((k) => !b.has(k));
    assert.deepEqual(
      gone.filter((k) => k.startsWith('function ') && !dropped.includes(k)),
      [],
      'the move kept every function',
    );
    assert.deepEqual(
      gone.filter((k) => k.startsWith('trigger ')),
      [],
      'and every trigger',
    );
    for (const [key, def] of a) assert.equal(b.get(key), def, key);
    // Same rows recorded on both, so the next start treats them alike.
    const recorded = (q: Queryable) =>
      q.query('SELECT file, checksum FROM schema_functions ORDER BY file').then((r) => r.rows);
    assert.deepEqual(await recorded(fresh.db), await recorded(old.db));
    assert.deepEqual(await migrate(old.db), { applied: [], functions: [], unowned: [] });
  } finally {
    await fresh.close();
    await old.close();
  }
});

test('changing one function file applies that file again, and only it', async () => {
  const { db, close } = await openTestDatabase();
  try {
    const files = readFunctionFiles();
    const before = (
      await db.query<{ file: string; applied_at: string }>(
        'SELECT file, applied_at FROM schema_functions ORDER BY file',
      )
    ).rows;
    const changed: FunctionFile[] = files.map((f) =>
      f.file === 'settle.sql' ? functionFile(f.file, f.sql.replace(/\nBEGIN\n/, '\nBEGIN\n  -- a changed rule\n')) : f,
    );
    const report = await migrate(db, { functions: changed });
    assert.deepEqual(report, { applied: [], functions: ['settle.sql'], unowned: [] });
    const def = await db.query<{ def: string }>("SELECT pg_get_functiondef('bbo_settle'::regproc) AS def");
    assert.match(def.rows[0].def, /-- a changed rule/);
    const after = (
      await db.query<{ file: string; applied_at: string }>(
        'SELECT file, applied_at FROM schema_functions ORDER BY file',
      )
    ).rows;
    for (const row of after) {
      const was = before.find((r) => r.file === row.file)!;
      if (row.file === 'settle.sql') assert.notEqual(row.applied_at, was.applied_at);
      else assert.equal(row.applied_at, was.applied_at, row.file);
    }
    assert.deepEqual((await migrate(db, { functions: changed })).functions, []);
    // Back to the file as it is: applied again, the rule as written.
    assert.deepEqual((await migrate(db)).functions, ['settle.sql']);
    const restored = await db.query<{ def: string }>("SELECT pg_get_functiondef('bbo_settle'::regproc) AS def");
    assert.doesNotMatch(restored.rows[0].def, /a changed rule/);
  } finally {
    await close();
  }
});

test('a function deleted from its file is reported, warned and left in place', async () => {
  const { db, close } = await openTestDatabase();
  try {
    const files = readFunctionFiles().map((f) =>
      f.file === 'customer-hold.sql'
        ? functionFile(
            f.file,
            f.sql.replace(/CREATE OR REPLACE FUNCTION bbo_refuse_not_offered\(\).*?END \$\$;\n/s, ''),
          )
        : f,
    );
    assert.ok(!definedFunctions(files).has('bbo_refuse_not_offered'));
    const warnings: { obj: object; msg: string }[] = [];
    const report = await migrate(db, { functions: files, log: { warn: (obj, msg) => warnings.push({ obj, msg }) } });
    assert.deepEqual(report.functions, ['customer-hold.sql']);
    assert.deepEqual(report.unowned, ['bbo_refuse_not_offered()']);
    assert.deepEqual(
      warnings.map((w) => w.obj),
      [{ functions: ['bbo_refuse_not_offered()'] }],
    );
    const still = await db.query("SELECT to_regprocedure('bbo_refuse_not_offered()') IS NOT NULL AS there");
    assert.equal(still.rows[0].there, true);
    // The file as it is defines it again; an old overload left beside a function is reported (both
    // signatures named, as the files cannot say which one is meant).
    await db.query('CREATE FUNCTION bbo_iso(t timestamp) RETURNS text LANGUAGE sql AS $$ SELECT t::text $$');
    const again = await migrate(db);
    assert.deepEqual(again.functions, ['customer-hold.sql']);
    assert.deepEqual(again.unowned, ['bbo_iso(timestamp with time zone)', 'bbo_iso(timestamp without time zone)']);
  } finally {
    await close();
  }
});

test('every db/functions file is listed in ORDER once, and a missing or unlisted file is refused', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bbo-fn-'));
  try {
    for (const file of fs.readdirSync(FUNCTIONS_DIR))
      fs.copyFileSync(path.join(FUNCTIONS_DIR, file), path.join(dir, file));
    assert.equal(readFunctionFiles(dir).length, fs.readdirSync(FUNCTIONS_DIR).filter((f) => f.endsWith('.sql')).length);
    fs.writeFileSync(path.join(dir, 'extra.sql'), 'SELECT 1;\n');
    assert.throws(() => readFunctionFiles(dir), /unlisted: extra\.sql/);
    fs.rmSync(path.join(dir, 'extra.sql'));
    fs.rmSync(path.join(dir, 'settle.sql'));
    assert.throws(() => readFunctionFiles(dir), /missing: settle\.sql/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('numbered migrations define no function or trigger, and each function has one definition in the files', () => {
  for (const m of readMigrations()) {
    for (const statement of splitStatements(m.sql)) {
      assert.doesNotMatch(
        statement.replace(/--.*$/gm, ''),
        /\bCREATE\s+(OR\s+REPLACE\s+)?(FUNCTION|PROCEDURE|TRIGGER)\b/i,
        m.name,
      );
    }
  }
  const defined = definedFunctions(readFunctionFiles());
  assert.ok(defined.size >= 36);
  for (const [name, n] of defined) assert.equal(n, 1, `${name} is defined ${n} times`);
});
