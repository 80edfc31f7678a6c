// npm test: the suite on the embedded engine and, when TEST_DATABASE_URL is set, the files that prove
// something on the PostgreSQL server (SERVER_RUN below), the two side by side (each test file runs on
// a fresh database of its own engine, so they share nothing). The first engine's output streams live;
// the second's is held and printed whole after it, so the log reads one engine at a time. The
// console's end-to-end tests (test/e2e/*.e2e.ts, headless Chromium) run once, on the embedded engine,
// from the moment the first engine's run ends; their output is printed last.
// The embedded engine is real PostgreSQL 15 from npm: one cluster per engine run, started by
// test/support/global-setup.ts.
import { spawn } from 'node:child_process';
import { globSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const e2eFiles = args.length ? args.filter((f) => f.endsWith('.e2e.ts')) : globSync('test/e2e/*.e2e.ts').sort();
const unitFiles = args.length ? args.filter((f) => !f.endsWith('.e2e.ts')) : globSync('test/**/*.test.ts').sort();
const engines = process.env.TEST_DATABASE_URL ? ['embedded', 'pg'] : ['embedded'];

// The server run (docs/decisions/test-suite.md, "What runs on the PostgreSQL server?"). Both engines
// are PostgreSQL 15 behind the same adapter; the server adds TCP, its own settings and a cluster other
// clients share. So it runs the spec's 29 operations (every booking, customer and preferences test, and
// the contract), every file that races connections or processes, and the database layer. The booking
// page, customer messages, events and webhooks, the console and the plumbing run once, embedded: events,
// webhooks and messages meet the server in npm run test:reliability, and PgBouncer in its pooled run.
// TEST_SERVER_RUN=all runs every file on the server too.
const SERVER_RUN = [
  'test/bookings/**/*.test.ts',
  'test/customers/**/*.test.ts',
  'test/classes/**/*.test.ts',
  'test/notifications/preferences*.test.ts',
  'test/imports/**/*.test.ts',
  'test/reports/**/*.test.ts',
  'test/**/*race*.test.ts',
  'test/**/concurrency.test.ts',
  // Staff passkeys: the single-use challenge is raced there.
  'test/staff/passkeys/*.test.ts',
  ...[
    'audit',
    'backlog-cost',
    'conformance',
    'connection-kills',
    'db-functions',
    'envelope',
    'framework-errors',
    'hot-updates',
    'idempotency',
    'migrations',
    'one-statement',
    'openapi-contract',
    'pg-adapter',
    'read-routing',
    'read-routing-app',
    'session-check',
    'sharding-catalogue',
    'write-positions-redis',
  ].map((name) => `test/platform/${name}.test.ts`),
];
// A name in the list that matches no file (a test renamed) would drop out of the server run unnoticed.
const serverMatches = SERVER_RUN.map((g) => ({ g, files: globSync(g) }));
const unmatched = serverMatches.filter((m) => m.files.length === 0).map((m) => m.g);
if (unmatched.length) throw new Error(`SERVER_RUN names files that do not exist: ${unmatched.join(', ')}`);
// The customer's sign-in belongs to the booking page, not to the 29 operations.
const SERVER_SKIP = new Set(globSync('test/customers/sign-in/*.test.ts'));
const onServer = new Set(serverMatches.flatMap((m) => m.files).filter((f) => !SERVER_SKIP.has(f)));
const filesOf: Record<string, string[]> = {
  embedded: unitFiles,
  pg: process.env.TEST_SERVER_RUN === 'all' ? unitFiles : unitFiles.filter((f) => onServer.has(f)),
};
if (!process.env.TEST_DATABASE_URL) console.log('TEST_DATABASE_URL is not set: running on the embedded engine only');

// Every test file is its own process: V8's compile cache spares each one compiling the same modules.
const compileCache = process.env.NODE_COMPILE_CACHE ?? path.join(os.tmpdir(), 'bbo-test-compile-cache');

const label = (engine: string) =>
  engine === 'pg'
    ? `test suite on the PostgreSQL server (${filesOf.pg.length} of ${unitFiles.length} files)`
    : 'test suite on the embedded PostgreSQL';

/**
 * Runs one engine's files; `live` streams its output, otherwise it is returned when it ends. `id` names
 * the run's own cluster and template, so the end-to-end run beside the embedded one shares neither.
 */
function run(engine: string, files: string[], live: boolean, id = engine): Promise<{ ok: boolean; output: string }> {
  const child = spawn(
    process.execPath,
    [
      '--test',
      '--test-global-setup=test/support/global-setup.ts',
      '--test-concurrency=2',
      '--test-timeout=120000',
      ...files,
    ],
    {
      stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        NODE_COMPILE_CACHE: compileCache,
        TEST_ENGINE: engine,
        TEST_RUN_ID: `${process.pid}-${id}`,
      },
    },
  );
  const chunks: Buffer[] = [];
  child.stdout?.on('data', (c: Buffer) => chunks.push(c));
  child.stderr?.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ ok: code === 0, output: Buffer.concat(chunks).toString() })),
  );
}

let failed = false;
// The end-to-end files start as soon as the first engine's run ends, beside the engine still running:
// the server's share (about 100 files) ends minutes before the embedded run (every file), and those
// minutes of a free core would otherwise wait. Their output is held and printed after the engines'.
const e2e = (): Promise<{ ok: boolean; output: string }> =>
  e2eFiles.length ? run('embedded', e2eFiles, false, 'e2e') : Promise.resolve({ ok: true, output: '' });
// An engine with no file of those named is left out: node --test given no file runs every test it finds.
const unitEngines = engines.filter((engine) => filesOf[engine].length > 0);
let e2eRun: Promise<{ ok: boolean; output: string }> | undefined;
const startE2e = () => (e2eRun ??= e2e());
if (unitEngines.length) {
  const [first, ...rest] = unitEngines;
  console.log(`\n=== ${label(first)} ===`);
  const runs = [run(first, filesOf[first], true), ...rest.map((engine) => run(engine, filesOf[engine], false))];
  for (const r of runs) r.then(startE2e);
  const done = await Promise.all(runs);
  done.forEach((r, i) => {
    if (i > 0) process.stdout.write(`\n=== ${label(unitEngines[i])} ===\n${r.output}`);
    if (!r.ok) failed = true;
  });
}
if (e2eFiles.length) {
  const r = await startE2e();
  process.stdout.write(`\n=== console end-to-end in headless Chromium (the embedded PostgreSQL) ===\n${r.output}`);
  if (!r.ok) failed = true;
}
process.exit(failed ? 1 : 0);
