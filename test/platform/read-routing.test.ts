// The read router's rules, against a replica whose replay position the test sets (GitLab's rule:
// a read goes to the replica only once it has replayed past every write the read must see).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Database, QueryResult } from '../../src/platform/db/port.ts';
import { ReadRouter } from '../../src/platform/db/read-routing.ts';
import { WritePositions } from '../../src/platform/db/write-positions.ts';
import { formatLsn, parseLsn, sortableLsn, fromSortable } from '../../src/platform/db/wal-position.ts';
import { parseReadRoutingConfig } from '../../src/platform/db/read-routing.config.ts';

/** A node that answers the router's poll with the position and lag the test sets, and counts the other statements it runs. */
export function fakeNode(name: string) {
  const node = {
    name,
    replay: '0/1000' as string | null,
    standby: true,
    lagMs: 0,
    insert: '0/1000',
    down: false,
    /** 'conflict': the next statement is cancelled as a recovery conflict would be. */
    failNext: null as null | 'conflict',
    statements: 0,
    db: null as unknown as Database,
  };
  const answer = (rows: any[]): QueryResult<any> => ({ rows, rowCount: rows.length });
  node.db = {
    engine: 'pg',
    async query(sql: string) {
      if (node.down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5442'), { code: 'ECONNREFUSED' });
      if (sql.includes('pg_last_wal_replay_lsn'))
        return answer([{ standby: node.standby, replay: node.replay, lag_ms: node.lagMs }]);
      if (sql.includes('pg_current_wal_insert_lsn')) return answer([{ lsn: node.insert }]);
      if (node.failNext === 'conflict') {
        node.failNext = null;
        throw Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' });
      }
      node.statements++;
      return answer([{ served_by: name }]);
    },
    transaction: async (fn: any) => fn(node.db),
    exec: async () => {},
    ping: async () => {},
    close: async () => {},
  } as Database;
  return node;
}

function setup(options: { maxLagMs?: number; stickyMs?: number } = {}) {
  let now = 1_000_000;
  const primary = fakeNode('primary');
  const replica = fakeNode('replica');
  const positions = new WritePositions({ stickyMs: options.stickyMs ?? 30_000, now: () => now });
  const router = new ReadRouter({
    primary: primary.db,
    replica: replica.db,
    positions,
    maxLagMs: options.maxLagMs ?? 5_000,
    pollMs: 60_000,
    now: () => now,
  });
  return { primary, replica, router, positions, advance: (ms: number) => (now += ms) };
}

/** Which node answered a read through the handle the router chose. */
async function servedBy(router: ReadRouter, keys: string[], client: bigint | null = null): Promise<string> {
  const db = await router.readsFor(keys, client);
  return (await db.query<{ served_by: string }>('SELECT 1')).rows[0].served_by;
}

test('WAL positions parse and print as PostgreSQL does, and sort as text in fixed width', () => {
  assert.equal(parseLsn('16/B374D848'), (0x16n << 32n) | 0xb374d848n);
  assert.equal(formatLsn(parseLsn('16/B374D848')!), '16/B374D848');
  assert.equal(parseLsn('0/0'), 0n);
  for (const bad of ['', 'x/1', '1', '1/2/3', '123456789/0', ' 0/1; DROP']) assert.equal(parseLsn(bad), null, bad);
  assert.ok(sortableLsn(parseLsn('2/0')!) > sortableLsn(parseLsn('1/FFFFFFFF')!));
  assert.equal(fromSortable(sortableLsn(123n)), 123n);
});

test('a read with nothing to wait for goes to a healthy replica', async () => {
  const { router, replica, primary } = setup();
  await router.start();
  assert.equal(await servedBy(router, ['store:a']), 'replica');
  assert.equal(replica.statements, 1);
  assert.equal(primary.statements, 0);
  assert.deepEqual(router.stats().replicaReads, 1);
  await router.stop();
});

test('after a write, its caller and its store read from the primary until the replica has replayed past it', async () => {
  const { router, primary, replica } = setup();
  await router.start();
  primary.insert = '0/5000';
  assert.equal(await router.afterWrite(['caller:m1', 'store:a']), 0x5000n);
  assert.equal(await servedBy(router, ['caller:m1', 'store:a']), 'primary');
  // Another merchant of the same store: the store's position binds them too.
  assert.equal(await servedBy(router, ['caller:m2', 'store:a']), 'primary');
  // Another store is not held back.
  assert.equal(await servedBy(router, ['caller:m3', 'store:b']), 'replica');
  // The replica replays to just short of the write, then to it: only the cached poll counts.
  replica.replay = '0/4FFF';
  await router.poll();
  assert.equal(await servedBy(router, ['store:a']), 'primary');
  replica.replay = '0/5000';
  assert.equal(await servedBy(router, ['store:a']), 'primary', 'not until a poll has seen it');
  await router.poll();
  assert.equal(await servedBy(router, ['store:a']), 'replica');
  assert.equal(router.stats().primaryBecause.behindWrite, 4);
  await router.stop();
});

test('the position a client sends back (X-Read-After) holds its reads on the primary until the replica has it', async () => {
  const { router, replica } = setup();
  await router.start();
  assert.equal(await servedBy(router, ['caller:c1'], 0x9000n), 'primary');
  replica.replay = '0/9000';
  await router.poll();
  assert.equal(await servedBy(router, ['caller:c1'], 0x9000n), 'replica');
  await router.stop();
});

test('a write binds reads only for the stickiness; then the lag bound alone decides', async () => {
  const { router, primary, advance } = setup({ stickyMs: 30_000 });
  await router.start();
  primary.insert = '0/7000';
  await router.afterWrite(['store:a']);
  advance(29_999);
  assert.equal(await servedBy(router, ['store:a']), 'primary');
  advance(2);
  assert.equal(await servedBy(router, ['store:a']), 'replica');
  await router.stop();
});

test('a replica lagging past the bound is skipped, and used again when it catches up', async () => {
  const { router, replica } = setup({ maxLagMs: 1_000 });
  replica.lagMs = 1_500;
  await router.start();
  assert.equal(await servedBy(router, ['store:a']), 'primary');
  replica.lagMs = 200;
  await router.poll();
  assert.equal(await servedBy(router, ['store:a']), 'replica');
  assert.equal(router.stats().primaryBecause.lagging, 1);
  await router.stop();
});

test('a replica that stops answering is skipped with no error, and used again once it answers', async () => {
  const { router, replica, primary, advance } = setup();
  await router.start();
  // Down between the poll and the read: the statement runs again on the primary.
  replica.down = true;
  assert.equal(await servedBy(router, ['store:a']), 'primary');
  assert.equal(router.stats().fallbacks, 1);
  assert.equal(router.state.up, false);
  assert.equal(await servedBy(router, ['store:a']), 'primary');
  // Back: not before the hold-down has passed, then at the next poll.
  replica.down = false;
  await router.poll();
  assert.equal(await servedBy(router, ['store:a']), 'primary');
  advance(1_000);
  await router.poll();
  assert.equal(await servedBy(router, ['store:a']), 'replica');
  assert.equal(primary.statements, 3);
  await router.stop();
});

test('a statement cancelled by a recovery conflict runs again on the primary; the replica stays in use', async () => {
  const { router, replica } = setup();
  await router.start();
  replica.failNext = 'conflict';
  assert.equal(await servedBy(router, ['store:a']), 'primary');
  assert.equal(router.state.up, true);
  assert.equal(await servedBy(router, ['store:a']), 'replica');
  await router.stop();
});

test('a server that is not a standby is never read from', async () => {
  const { router, replica } = setup();
  replica.standby = false;
  replica.replay = null;
  await router.start();
  assert.equal(router.state.up, false);
  assert.equal(await servedBy(router, []), 'primary');
  await router.stop();
});

test('a write whose position cannot be read pins its caller and store to the primary', async () => {
  const { router, primary, replica } = setup();
  await router.start();
  primary.down = true;
  assert.equal(await router.afterWrite(['store:a']), null);
  primary.down = false;
  replica.replay = 'FFFFFFFF/FFFFFFFE';
  await router.poll();
  assert.equal(await servedBy(router, ['store:a']), 'primary');
  assert.equal(await servedBy(router, ['store:b']), 'replica');
  await router.stop();
});

test('when the shared positions cannot be read, reads stay on the primary', async () => {
  const redis = {
    mget: async () => {
      throw new Error('redis down');
    },
    eval: async () => {
      throw new Error('redis down');
    },
  };
  const primary = fakeNode('primary');
  const replica = fakeNode('replica');
  const router = new ReadRouter({
    primary: primary.db,
    replica: replica.db,
    positions: new WritePositions({ stickyMs: 30_000, redis: redis as any }),
    maxLagMs: 5_000,
    pollMs: 60_000,
  });
  await router.start();
  assert.equal(await servedBy(router, ['store:a']), 'primary');
  assert.equal(router.stats().primaryBecause.positionsUnknown, 1);
  await router.stop();
});

test('the settings: a replica needs a server primary, and the lag bound must be shorter than the stickiness', () => {
  const fail = (m: string): never => {
    throw new Error(m);
  };
  const ok = parseReadRoutingConfig({ DATABASE_READ_URL: 'postgres://r/db' }, 'postgres://p/db', fail);
  assert.deepEqual(
    { ...ok },
    { readUrl: 'postgres://r/db', poolSize: null, maxLagMs: 5_000, stickyMs: 30_000, pollMs: 100 },
  );
  assert.equal(parseReadRoutingConfig({}, null, fail).readUrl, null);
  assert.throws(
    () => parseReadRoutingConfig({ DATABASE_READ_URL: 'postgres://r/db' }, null, fail),
    /needs DATABASE_URL/,
  );
  assert.throws(
    () => parseReadRoutingConfig({ DATABASE_READ_URL: 'mysql://r/db' }, 'postgres://p/db', fail),
    /postgres:\/\//,
  );
  assert.throws(
    () => parseReadRoutingConfig({ DB_READ_MAX_LAG_MS: '30000' }, null, fail),
    /less than DB_READ_STICKY_MS/,
  );
  assert.throws(() => parseReadRoutingConfig({ DB_READ_POLL_MS: '5' }, null, fail), /DB_READ_POLL_MS/);
});
