// npm test: the suite on the embedded engine and, when TEST_DATABASE_URL is set, on the PostgreSQL
// server, the two side by side (each test file runs on a fresh database of its own engine, so they
// share nothing). The first engine's output streams live; the second's is held and printed whole
// after it, so the log reads one engine at a time. Then the console's end-to-end tests
// (test/e2e/*.e2e.ts, headless Chromium) run once, on the embedded engine. The embedded engine is
// real PostgreSQL 15 from npm: one cluster per engine run, started by test/support/global-setup.ts.
import { spawn } from 'node:child_process';
import { globSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const e2eFiles = args.length ? args.filter((f) => f.endsWith('.e2e.ts')) : globSync('test/e2e/*.e2e.ts').sort();
const unitFiles = args.length ? args.filter((f) => !f.endsWith('.e2e.ts')) : globSync('test/**/*.test.ts').sort();
const engines = process.env.TEST_DATABASE_URL ? ['embedded', 'pg'] : ['embedded'];
if (!process.env.TEST_DATABASE_URL) console.log('TEST_DATABASE_URL is not set: running on the embedded engine only');

// Every test file is its own process: V8's compile cache spares each one compiling the same modules.
const compileCache = process.env.NODE_COMPILE_CACHE ?? path.join(os.tmpdir(), 'bbo-test-compile-cache');

const label = (engine: string) => `test suite on ${engine === 'pg' ? 'PostgreSQL server' : 'the embedded PostgreSQL'}`;

/** Runs one engine's files; `live` streams its output, otherwise it is returned when it ends. */
function run(engine: string, files: string[], live: boolean): Promise<{ ok: boolean; output: string }> {
  const child = spawn(
    process.execPath,
    ['--test', '--test-global-setup=test/support/global-setup.ts', '--test-concurrency=2', '--test-timeout=120000', ...files],
    {
      stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_COMPILE_CACHE: compileCache, TEST_ENGINE: engine, TEST_RUN_ID: `${process.pid}-${engine}` },
    },
  );
  const chunks: Buffer[] = [];
  child.stdout?.on('data', (c: Buffer) => chunks.push(c));
  child.stderr?.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve) => child.on('close', (code) => resolve({ ok: code === 0, output: Buffer.concat(chunks).toString() })));
}

let failed = false;
if (unitFiles.length) {
  const [first, ...rest] = engines;
  console.log(`\n=== ${label(first)} ===`);
  const runs = [run(first, unitFiles, true), ...rest.map((engine) => run(engine, unitFiles, false))];
  const done = await Promise.all(runs);
  done.forEach((r, i) => {
    if (i > 0) process.stdout.write(`\n=== ${label(engines[i])} ===\n${r.output}`);
    if (!r.ok) failed = true;
  });
}
if (e2eFiles.length) {
  console.log('\n=== console end-to-end in headless Chromium (the embedded PostgreSQL) ===');
  const r = await run('embedded', e2eFiles, true);
  if (!r.ok) failed = true;
}
process.exit(failed ? 1 : 0);
