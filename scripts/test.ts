// npm test: the suite on the embedded engine, then on the PostgreSQL server when
// TEST_DATABASE_URL is set. Each test file runs on a fresh database.
import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';

const files = process.argv.slice(2).length ? process.argv.slice(2) : globSync('test/**/*.test.ts').sort();
const engines = process.env.TEST_DATABASE_URL ? ['pglite', 'pg'] : ['pglite'];
if (!process.env.TEST_DATABASE_URL) console.log('TEST_DATABASE_URL is not set: running on the embedded engine only');

let failed = false;
for (const engine of engines) {
  console.log(`\n=== test suite on ${engine === 'pg' ? 'PostgreSQL server' : 'embedded PGlite'} ===`);
  const result = spawnSync(
    process.execPath,
    ['--test', '--test-global-setup=test/support/global-setup.ts', '--test-concurrency=2', '--test-timeout=120000', ...files],
    { stdio: 'inherit', env: { ...process.env, TEST_ENGINE: engine, TEST_RUN_ID: `${process.pid}-${engine}` } },
  );
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
