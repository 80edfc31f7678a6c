// Issue 30's memory target on the embedded engine (docs/decisions/embedded-engine.md): the modules a
// shop without SMTP or Redis never uses (nodemailer, ioredis) are not loaded by the service's modules
// until those are configured, and the embedded PostgreSQL runs with the small-machine settings (a
// shop's own settings still win). The heap's growing factor, on both engines: heap-growth.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startCluster } from '../../src/platform/db/embedded/cluster.ts';

const root = path.resolve(import.meta.dirname, '../..');

test("without SMTP_URL and REDIS_URL the service's modules load neither nodemailer nor ioredis", () => {
  // The modules src/server.ts builds the service from, imported in a fresh process that records every
  // package it resolves.
  const script = `
    import { registerHooks } from 'node:module';
    const seen = new Set();
    registerHooks({ resolve(spec, ctx, next) { const r = next(spec, ctx); const m = /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(r.url); if (m) seen.add(m[1]); return r; } });
    for (const f of ['src/app.ts', 'src/webhooks/delivery-worker.ts', 'src/notifications/messages/worker.ts', 'src/platform/db/read-routing.open.ts', 'src/customers/sign-in/code-mail.ts']) await import(${JSON.stringify(root + '/')} + f);
    console.log(JSON.stringify([...seen]));`;
  const loaded: string[] = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: root }),
  );
  assert.ok(loaded.includes('fastify'), 'the probe saw the app load its packages');
  assert.deepEqual(
    loaded.filter((p) => p === 'nodemailer' || p === 'ioredis'),
    [],
  );
});

test("the embedded PostgreSQL runs with the small-machine settings, and the shop's own settings win over them", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bbo-small-machine-'));
  // Readable by the system user postgres when the tests run as root (binaries.ts runs the server as it).
  fs.chmodSync(dir, 0o755);
  const cluster = await startCluster({
    pgdata: path.join(dir, 'postgres'),
    noSync: true,
    settings: { work_mem: '2MB' },
  });
  const client = new pg.Client({ connectionString: cluster.url() });
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string; setting: string; unit: string | null }>(
      `SELECT name, setting, unit FROM pg_settings WHERE name IN ('shared_buffers', 'autovacuum_work_mem', 'autovacuum_max_workers', 'work_mem', 'jit') ORDER BY name`,
    );
    const shown = Object.fromEntries(rows.map((r) => [r.name, r.unit ? `${r.setting} ${r.unit}` : r.setting]));
    assert.deepEqual(shown, {
      autovacuum_max_workers: '1',
      autovacuum_work_mem: '4096 kB',
      jit: 'off',
      shared_buffers: '2048 8kB',
      work_mem: '2048 kB',
    });
  } finally {
    await client.end().catch(() => {});
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
