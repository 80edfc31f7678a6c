// The service's heap growing factor (src/platform/heap-growth.ts), set at start on both engines:
// it is set unless node's command line sets its own, and setting it at run time takes effect.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from '../../src/platform/heap-growth.ts';

const root = path.resolve(import.meta.dirname, '../..');

test("the service's heap grows by a fixed percent, unless node was started with its own --heap-growing-percent", () => {
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
  const run = (mode: string) =>
    JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script, mode], { encoding: 'utf8' }));
  const free = run('free');
  const limited = run('limit');
  assert.equal(limited.limit, free.limit);
  assert.ok(limited.peak < free.peak, `peak heap ${limited.peak} with the factor, ${free.peak} without`);
});
