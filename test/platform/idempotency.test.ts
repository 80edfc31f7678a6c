import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call, errorCode } from '../support/http.ts';
import { probeRoutes } from './probe.ts';

const t = await startTestApp({ extend: probeRoutes });
const store = await t.fx.store();
const otherStore = await t.fx.store({ name: 'Other' });
const token = await t.fx.merchantToken(store.id);
const count = async (label: string) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM probe_counter WHERE label = $1', [label])).rows[0].n;
const records = async (key: string) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM idempotency_records WHERE key = $1', [key])).rows[0]
    .n;

test('a retry with the same key and body replays the stored result with the replay header', async () => {
  const first = await call(t.app, 'POST', '/probe/counter', { token, body: { label: 'a' }, idempotencyKey: 'key-a' });
  assert.equal(first.status, 200);
  assert.equal(first.headers['idempotent-replayed'], undefined);
  const again = await call(t.app, 'POST', '/probe/counter', { token, body: { label: 'a' }, idempotencyKey: 'key-a' });
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, first.body);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.equal(await count('a'), 1);
  assert.equal(await records('key-a'), 1);
});

test('key order in the body does not matter for the replay', async () => {
  const first = await call(t.app, 'POST', '/probe/counter', {
    token,
    body: { label: 'order', delay_ms: 0 },
    idempotencyKey: 'key-order',
  });
  const again = await call(t.app, 'POST', '/probe/counter', {
    token,
    body: { delay_ms: 0, label: 'order' },
    idempotencyKey: 'key-order',
  });
  assert.deepEqual(again.body, first.body);
  assert.equal(await count('order'), 1);
});

test('the same key with a different body answers 422 IDEMPOTENCY_KEY_REUSED and writes nothing', async () => {
  await call(t.app, 'POST', '/probe/counter', { token, body: { label: 'b' }, idempotencyKey: 'key-b' });
  const res = await call(t.app, 'POST', '/probe/counter', { token, body: { label: 'c' }, idempotencyKey: 'key-b' });
  assert.equal(res.status, 422);
  assert.equal(errorCode(res), 'IDEMPOTENCY_KEY_REUSED');
  assert.equal(await count('c'), 0);
});

test('keys are scoped to the principal: two stores using one key stay independent', async () => {
  const other = await t.fx.merchantToken(otherStore.id);
  const a = await call(t.app, 'POST', '/probe/counter', {
    token,
    body: { label: 'shared' },
    idempotencyKey: 'key-shared',
  });
  const b = await call(t.app, 'POST', '/probe/counter', {
    token: other,
    body: { label: 'shared' },
    idempotencyKey: 'key-shared',
  });
  assert.equal(b.headers['idempotent-replayed'], undefined);
  assert.notEqual(a.body.id, b.body.id);
  assert.equal(await count('shared'), 2);
});

test('a failed request stores nothing, so a retry with the same key runs afresh', async () => {
  // Refused by validation: the corrected retry with the same key runs and is not a replay.
  const bad = await call(t.app, 'POST', '/probe/counter', { token, body: { label: 5 }, idempotencyKey: 'key-fail' });
  assert.equal(bad.status, 400);
  assert.equal(await records('key-fail'), 0);
  const retry = await call(t.app, 'POST', '/probe/counter', {
    token,
    body: { label: 'fail-then-ok' },
    idempotencyKey: 'key-fail',
  });
  assert.equal(retry.status, 200, JSON.stringify(retry.body));
  assert.equal(retry.headers['idempotent-replayed'], undefined);
  assert.equal(await count('fail-then-ok'), 1);
  assert.equal(await records('key-fail'), 1);

  // Refused inside its transaction, after its effect: rolled back, no record; the retry runs a second time.
  const refused = await call(t.app, 'POST', '/probe/audited', {
    token,
    body: { label: 'afresh', entries: 1, fail: true },
    idempotencyKey: 'key-fail-inside',
  });
  assert.equal(errorCode(refused), 'CONFLICT');
  assert.equal(await records('key-fail-inside'), 0);
  assert.equal(await count('afresh'), 0);
  const again = await call(t.app, 'POST', '/probe/audited', {
    token,
    body: { label: 'afresh', entries: 1, fail: true },
    idempotencyKey: 'key-fail-inside',
  });
  assert.equal(errorCode(again), 'CONFLICT', 'the retry ran and was refused again, not answered from a record');
  const ok = await call(t.app, 'POST', '/probe/audited', {
    token,
    body: { label: 'afresh', entries: 1 },
    idempotencyKey: 'key-fail-inside',
  });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.headers['idempotent-replayed'], undefined);
  assert.equal(ok.body.attempt, 3, 'each of the three requests ran its own attempt');
  assert.equal(await count('afresh'), 1);
  assert.equal(await records('key-fail-inside'), 1);
});

test('an invalid key answers 400 INVALID_IDEMPOTENCY_KEY', async () => {
  const res = await call(t.app, 'POST', '/probe/counter', {
    token,
    body: { label: 'x' },
    idempotencyKey: 'x'.repeat(256),
  });
  assert.equal(res.status, 400);
  assert.equal(errorCode(res), 'INVALID_IDEMPOTENCY_KEY');
});

test('records expire after 24 hours', async () => {
  await call(t.app, 'POST', '/probe/counter', { token, body: { label: 'exp' }, idempotencyKey: 'key-exp' });
  t.clock.advance(24 * 3600 * 1000 + 1000);
  const later = await call(t.app, 'POST', '/probe/counter', {
    token,
    body: { label: 'exp' },
    idempotencyKey: 'key-exp',
  });
  assert.equal(later.headers['idempotent-replayed'], undefined);
  assert.equal(await count('exp'), 2);
});

test('a duplicate that arrives while the first is running answers 409 IDEMPOTENCY_IN_PROGRESS', async () => {
  // The first request is held inside its transaction (after claiming its key) by an advisory lock
  // this test holds, and released only once the duplicate has been answered: no head start to lose.
  const LOCK = 31074;
  const body = { label: 'slow', hold_lock: LOCK };
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const lockTaken = new Promise<void>((resolve) => (locked = resolve));
  const holder = t.db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [LOCK]);
    locked();
    await released;
  });
  await lockTaken;
  const slow = call(t.app, 'POST', '/probe/counter', { token, body, idempotencyKey: 'key-slow' });
  let dup: Awaited<typeof slow>;
  try {
    for (let i = 0; ; i++) {
      const waiting = await t.db.query(
        `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = 0 AND objid = $1
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        [LOCK],
      );
      if (waiting.rowCount === 1) break;
      assert.ok(i < 1000, 'the first request reached its transaction and waits there');
      await new Promise((r) => setTimeout(r, 10));
    }
    dup = await call(t.app, 'POST', '/probe/counter', { token, body, idempotencyKey: 'key-slow' });
  } finally {
    release();
    await holder;
  }
  assert.equal(dup.status, 409);
  assert.equal(errorCode(dup), 'IDEMPOTENCY_IN_PROGRESS');
  assert.equal(dup.headers['retry-after'], '1');
  assert.equal((await slow).status, 200);
  const after = await call(t.app, 'POST', '/probe/counter', { token, body, idempotencyKey: 'key-slow' });
  assert.equal(after.headers['idempotent-replayed'], 'true');
  assert.equal(await count('slow'), 1);
});

test('twenty parallel retries of one key have one effect', async () => {
  const results = await Promise.all(
    Array.from({ length: 20 }, () =>
      call(t.app, 'POST', '/probe/counter', { token, body: { label: 'par' }, idempotencyKey: 'key-par' }),
    ),
  );
  const ok = results.filter((r) => r.status === 200);
  assert.ok(ok.length >= 1);
  for (const r of results)
    assert.ok(r.status === 200 || (r.status === 409 && errorCode(r) === 'IDEMPOTENCY_IN_PROGRESS'), String(r.status));
  for (const r of ok) assert.deepEqual(r.body, ok[0].body);
  assert.equal(await count('par'), 1);
});
