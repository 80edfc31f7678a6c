// npm test: the suite on the embedded engine, then on the PostgreSQL server when
// TEST_DATABASE_URL is set. Each test file runs on a fresh database. Then the console's
// end-to-end tests (test/e2e/*.e2e.ts, headless Chromium) run once, on the embedded engine.
import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';

const args = process.argv.slice(2);
const e2eFiles = args.length ? args.filter((f) => f.endsWith('.e2e.ts')) : globSync('test/e2e/*.e2e.ts').sort();
const unitFiles = args.length ? args.filter((f) => !f.endsWith('.e2e.ts')) : globSync('test/**/*.test.ts').sort();
const engines = process.env.TEST_DATABASE_URL ? ['pglite', 'pg'] : ['pglite'];
if (!process.env.TEST_DATABASE_URL) console.log('TEST_DATABASE_URL is not set: running on the embedded engine only');

function run(engine: string, files: string[], label: string): boolean {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(
    process.execPath,
    ['--test', '--test-global-setup=test/support/global-setup.ts', '--test-concurrency=2', '--test-timeout=120000', ...files],
    { stdio: 'inherit', env: { ...process.env, TEST_ENGINE: engine, TEST_RUN_ID: `${process.pid}-${engine}` } },
  );
  return result.status === 0;
}

let failed = false;
if (unitFiles.length) {
  for (const engine of engines) {
    if (!run(engine, unitFiles, `test suite on ${engine === 'pg' ? 'PostgreSQL server' : 'embedded PGlite'}`)) failed = true;
  }
}
if (e2eFiles.length && !run('pglite', e2eFiles, 'console end-to-end in headless Chromium (embedded PGlite)')) failed = true;
process.exit(failed ? 1 : 0);
