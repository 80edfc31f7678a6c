// Issue 30's memory target on the embedded engine (docs/decisions/embedded-engine.md): the heap's
// growing factor is set (on both engines since round 11) unless node's command line sets its own, the
// modules a shop without SMTP or Redis never uses (nodemailer, ioredis) are not loaded by the
// service's modules until those are configured, and the embedded PostgreSQL runs with the
// small-machine settings (a shop's own settings still win).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from '../../src/platform/heap-growth.ts';
import { startCluster } from '../../src/platform/db/embedded/cluster.ts';

const root = path.resolve(import.meta.dirname, '../..');

test('the service\'s heap grows by a fixed percent, unless node was started with its own --heap-growing-percent', () => {
  assert.equal(limitHeapGrowth(['--max-semi-space-size=8']), HEAP_GROWING_PERCENT);
  assert.equal(limitHeapGrowth(['--heap-growing-percent=0']), null);
  assert.equal(limitHeapGrowth(['--heap_growing_percent=50']), null);
});

test('setting the growing factor at run time takes effect: the heap stays nearer what it holds', () => {
  // The same allocation pattern (a live set, and batches that outlive scavenges then die), with and
  // without the factor: the old generation's peak is smaller with it. heap_size_limit is unchanged.
  const script = `
    import v8 from 'node:v8';
    if (process.argv[1] === 'limit') (await import(${JSON.stringify(path.join(root, 'src/platform/heap-growth.ts'))})).limitHeapGrowth([]);
    const live = []; for (let i = 0; i < 200000; i++) live.push({ i, s: 'x' + i });
    const batches = []; let peak = 0;
    for (let r = 0; r < 150; r++) {
      batches.push(Array.from({ length: 20000 }, (_, i) => ({ i, s: 'y' + i })));
      if (batches.length > 15) batches.shift();
      peak = Math.max(peak, v8.getHeapStatistics().total_heap_size);
    }
    console.log(JSON.stringify({ peak, limit: v8.getHeapStatistics().heap_size_limit, live: live.length }));`;
  const run = (mode: string) => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script, mode], { encoding: 'utf8' }));
  const free = run('free');
  const limited = run('limit');
  assert.equal(limited.limit, free.limit);
  assert.ok(limited.peak < free.peak, `peak heap ${limited.peak} with the factor, ${free.peak} without`);
});

test('without SMTP_URL and REDIS_URL the service\'s modules load neither nodemailer nor ioredis', () => {
  // The modules src/server.ts builds the service from, imported in a fresh process that records every
  // package it resolves.
  const script = `
    import { registerHooks } from 'node:module';
    const seen = new Set();
    registerHooks({ resolve(spec, ctx, next) { const r = next(spec, ctx); const m = /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(r.url); if (m) seen.add(m[1]); return r; } });
    for (const f of ['src/app.ts', 'src/webhooks/delivery-worker.ts', 'src/notifications/messages/worker.ts', 'src/platform/db/read-routing.open.ts', 'src/customers/sign-in/code-mail.ts']) await import(${JSON.stringify(root + '/')} + f);
    console.log(JSON.stringify([...seen]));`;
  const loaded: string[] = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: root }));
  assert.ok(loaded.includes('fastify'), 'the probe saw the app load its packages');
  assert.deepEqual(loaded.filter((p) => p === 'nodemailer' || p === 'ioredis'), []);
});

test('the embedded PostgreSQL runs with the small-machine settings, and the shop\'s own settings win over them', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bbo-small-machine-'));
  // Readable by the system user postgres when the tests run as root (binaries.ts runs the server as it).
  fs.chmodSync(dir, 0o755);
  const cluster = await startCluster({ pgdata: path.join(dir, 'postgres'), noSync: true, settings: { work_mem: '2MB' } });
  const client = new pg.Client({ connectionString: cluster.url() });
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string; setting: string; unit: string | null }>(
      `SELECT name, setting, unit FROM pg_settings WHERE name IN ('shared_buffers', 'autovacuum_work_mem', 'autovacuum_max_workers', 'work_mem', 'jit') ORDER BY name`);
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
