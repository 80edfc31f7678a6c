// A second operating-system process on a test database, for the tests whose names say "two
// processes" or "another process": `node test/support/db-process.ts <url> migrate` migrates and
// prints its report; `... emit <store_id> <type> <json data>` commits one event. Each prints one JSON
// line on stdout. runDbProcess starts it and returns that line, parsed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { migrate } from '../../src/platform/db/migrate.ts';
import { openPg } from '../../src/platform/db/pg.adapter.ts';
import { writeEvents } from '../../src/platform/outbox.ts';

const SELF = fileURLToPath(import.meta.url);

/** Runs a node script as a child process with args; resolves with the one JSON line it printed (and its pid). */
export function runNodeScript<T>(file: string, args: string[], name: string): Promise<T & { pid: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${name} exited ${code}: ${err.slice(0, 2000)}`));
      else resolve({ ...(JSON.parse(out) as T), pid: child.pid as number });
    });
  });
}

/** Runs this file as a child process with args; resolves with the JSON it printed (and its pid). */
export function runDbProcess<T>(args: string[]): Promise<T & { pid: number }> {
  return runNodeScript<T>(SELF, args, `db-process ${args[1]}`);
}

async function main(url: string, mode: string, rest: string[]): Promise<unknown> {
  const db = openPg({ connectionString: url, poolSize: 2 });
  try {
    if (mode === 'migrate') {
      const report = await migrate(db);
      return { applied: report.applied, functions: report.functions };
    }
    if (mode === 'emit') {
      const [storeId, type, data] = rest;
      const occurred = new Date().toISOString();
      await db.transaction((tx) =>
        writeEvents(tx, [{ store_id: storeId, type, occurred_at: occurred, data: JSON.parse(data) }]),
      );
      return { emitted: true };
    }
    throw new Error(`unknown mode ${mode}`);
  } finally {
    await db.close();
  }
}

if (process.argv[1] === SELF) {
  const [url, mode, ...rest] = process.argv.slice(2);
  process.stdout.write(`${JSON.stringify(await main(url, mode, rest))}\n`);
}
