// Write positions shared through a real Redis (REDIS_TEST_URL, which .ci/run sets; skipped without
// it): what one process remembers, another process's reads must wait for. Two WritePositions with
// their own Redis connections stand for two API processes.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { WritePositions } from '../../src/platform/db/write-positions.ts';
import { parseLsn } from '../../src/platform/db/wal-position.ts';

const redisUrl = process.env.REDIS_TEST_URL;
const skip = !redisUrl && 'REDIS_TEST_URL is not set';
const clients: Redis[] = [];
after(async () => {
  for (const c of clients) c.disconnect();
});

const lsn = (text: string) => parseLsn(text)!;

function process_(stickyMs: number): WritePositions {
  const redis = new Redis(redisUrl!, { lazyConnect: false, maxRetriesPerRequest: 1 });
  clients.push(redis);
  return new WritePositions({ stickyMs, redis });
}

test("a write remembered by one process holds another process's reads: shared by store and by caller, only ever raised", {
  skip,
}, async () => {
  // a and b write; c only reads, so what it sees is what Redis keeps (it has no local record).
  const [a, b, c] = [process_(30_000), process_(30_000), process_(30_000)];
  // Keys of this run only (they outlive it in Redis for the stickiness).
  const run = randomBytes(4).toString('hex');
  const store = `store:${run}`;
  const caller = `caller:merchant-${run}`;
  assert.equal(await b.required([store, caller]), null, 'nothing written yet');

  await a.remember([store, caller], lsn('0/3000060'));
  assert.equal(await b.required([store]), lsn('0/3000060'), "the other process sees the store's write");
  assert.equal(await b.required([caller]), lsn('0/3000060'), "and the caller's");

  // A slower writer reporting an older position never lowers what is kept.
  await b.remember([store], lsn('0/2FFFFF0'));
  assert.equal(await c.required([store]), lsn('0/3000060'));
  await b.remember([store], lsn('1/00000010'));
  assert.equal(await c.required([store]), lsn('1/00000010'));
  assert.equal(await c.required([`store:other-${run}`]), null, 'another store waits for nothing');
});

test('a shared position lasts for the stickiness, then no longer binds', { skip }, async () => {
  const [a, b] = [process_(300), process_(300)];
  const key = `store:${randomBytes(4).toString('hex')}`;
  await a.remember([key], lsn('0/5000000'));
  assert.equal(await b.required([key]), lsn('0/5000000'));
  // Redis expires the key after the stickiness (PX 300): wait past it, polling, at most 5 s.
  const deadline = Date.now() + 5_000;
  let seen = await b.required([key]);
  while (seen !== null && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    seen = await b.required([key]);
  }
  assert.equal(seen, null);
});
