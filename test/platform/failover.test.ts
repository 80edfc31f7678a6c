// The service across a database failover (docs/decisions/failover.md): every way a database can be
// missing while Patroni moves the primary answers 503 SERVICE_UNAVAILABLE with Retry-After; a pool
// whose connections were cut reconnects by itself on the next checkout and counts it for /metrics;
// the read router forgets a replica's position when another server answers in its place; a FATAL that
// arrives as a connection is handed over is heard, never thrown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import Fastify from 'fastify';
import { openPg } from '../../src/platform/db/pg.adapter.ts';
import { isUnavailable, unavailableReason } from '../../src/platform/db/pg-errors.ts';
import { registerErrorHandling } from '../../src/platform/errors/error-handler.ts';
import { Metrics } from '../../src/platform/metrics/metrics.ts';
import { ReadRouter } from '../../src/platform/db/read-routing.ts';
import { WritePositions } from '../../src/platform/db/write-positions.ts';
import { parseLsn } from '../../src/platform/db/wal-position.ts';
import { TcpProxy } from '../../reliability/tcp-proxy.ts';
import { openTestDatabase } from '../support/engine.ts';
import { fakeNode } from './read-routing.test.ts';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

// What node-postgres and PostgreSQL raise while there is no primary, and what each must be.
const CASES: Array<[string, Error, string | null]> = [
  [
    'the primary refuses connections (down)',
    pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5470'),
    'connection',
  ],
  ['HAProxy resets a connection (no server up)', pgError('ECONNRESET', 'read ECONNRESET'), 'connection'],
  ['the server vanished mid-statement', new Error('Connection terminated unexpectedly'), 'connection'],
  ['a connection error of class 08', pgError('08006', 'connection failure'), 'connection'],
  [
    '57P01 admin shutdown (a switchover stops the old primary)',
    pgError('57P01', 'terminating connection due to administrator command'),
    'shutdown',
  ],
  [
    '57P02 crash shutdown',
    pgError('57P02', 'terminating connection because of crash of another server process'),
    'shutdown',
  ],
  [
    '57P03 cannot connect now (the node is starting or promoting)',
    pgError('57P03', 'the database system is starting up'),
    'shutdown',
  ],
  [
    '25006 read-only transaction (a write reached the demoted node)',
    pgError('25006', 'cannot execute INSERT in a read-only transaction'),
    'read_only',
  ],
  ['no connection within the connect timeout', new Error('Connection terminated due to connection timeout'), 'timeout'],
  ['no free connection within the connect timeout', new Error('timeout exceeded when trying to connect'), 'timeout'],
  ['a statement past the read timeout', new Error('Query read timeout'), 'timeout'],
  ['53300 too many connections', pgError('53300', 'sorry, too many clients already'), 'overloaded'],
  ['23505 unique violation (an answer, not an outage)', pgError('23505', 'duplicate key'), null],
  ['40001 serialization failure (retried, not an outage)', pgError('40001', 'could not serialize'), null],
];

test('every failure of a database that is failing over is recognised as unavailable, with its reason; answers are not', () => {
  for (const [what, err, reason] of CASES) {
    assert.equal(unavailableReason(err), reason, what);
    assert.equal(isUnavailable(err), reason !== null, what);
  }
});

test('while there is no primary, a request answers 503 SERVICE_UNAVAILABLE in the envelope with Retry-After, never a 500', async () => {
  const app = Fastify();
  registerErrorHandling(app);
  let next: Error = new Error('unset');
  app.get('/x', async () => {
    throw next;
  });
  await app.ready();
  try {
    for (const [what, err, reason] of CASES) {
      if (reason === null) continue;
      next = err;
      const res = await app.inject({ method: 'GET', url: '/x' });
      assert.equal(res.statusCode, 503, what);
      assert.equal(res.headers['retry-after'], '2', what);
      const body = res.json();
      assert.deepEqual(Object.keys(body), ['error'], what);
      assert.equal(body.error.code, 'SERVICE_UNAVAILABLE', what);
      assert.doesNotMatch(
        body.error.message,
        /ECONN|57P|25006|read-only|terminat/i,
        `${what}: no internals in the message`,
      );
    }
  } finally {
    await app.close();
  }
});

test('a pool whose connections are cut fails fast as unavailable, then reconnects by itself on the next checkout, and counts both', async () => {
  const database = await openTestDatabase();
  // The test database's server (a Unix socket directory on the embedded engine, a host otherwise).
  const target = new URL(database.url!);
  const proxy = new TcpProxy(decodeURIComponent(target.hostname), Number(target.port));
  await proxy.start();
  const url = new URL(database.url!);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  const db = openPg({ connectionString: url.toString(), poolSize: 2, connectTimeoutMs: 1_000 });
  const pid = async () => (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid', [])).rows[0].pid;
  try {
    const before = await pid();
    assert.equal(db.health.opened, 1);

    // The primary's machine is gone: open connections reset, new ones refused.
    await proxy.cut();
    const started = Date.now();
    await assert.rejects(db.query('SELECT 1 AS n', []), (err: Error) => isUnavailable(err));
    await assert.rejects(db.query('SELECT 1 AS n', []), (err: Error) => unavailableReason(err) === 'connection');
    assert.ok(Date.now() - started < 3_000, 'no request waits for a database that is gone');
    assert.ok(db.health.connectFailures >= 1, 'the refused connection is counted');
    assert.ok(db.health.unavailable.connection >= 2, 'both failures are counted as connection failures');
    assert.ok(db.health.dropped >= 1, 'the reset connection is dropped, not given back to the pool');

    // A primary answers on the same address again (HAProxy now sends to the new one): no restart.
    await proxy.restore();
    const after = await pid();
    assert.notEqual(after, before, 'a new session');
    assert.equal((await db.query<{ n: number }>('SELECT $1::int AS n', [7])).rows[0].n, 7);
    assert.equal(db.health.opened, 2, 'one reconnect');
    assert.equal(db.pool.totalCount, 1, 'the dead connection is not kept');

    // /metrics reports it (Prometheus naming: *_total counters labelled by pool and bounded reason).
    const metrics = new Metrics({ defaultMetrics: false });
    metrics.addPool('primary', db.pool, db.health);
    const text = (await metrics.scrape()).body;
    assert.match(text, /^bbo_db_connections_opened_total\{pool="primary"\} 2$/m);
    assert.match(text, /^bbo_db_connections_dropped_total\{pool="primary"\} [1-9]\d*$/m);
    assert.match(text, /^bbo_db_connect_failures_total\{pool="primary"\} [1-9]\d*$/m);
    assert.match(text, /^bbo_db_unavailable_errors_total\{pool="primary",reason="connection"\} [1-9]\d*$/m);
    assert.match(text, /^bbo_db_unavailable_errors_total\{pool="primary",reason="read_only"\} 0$/m);
  } finally {
    await db.close();
    await proxy.stop();
    await database.close();
  }
});

/** A replica behind one address (HAProxy's /replica) that the test can swap for another server. */
function replicaBehindProxy() {
  const node = fakeNode('replica');
  const proxy = { server: '127.0.0.1:5462@old', db: node.db };
  proxy.db = {
    ...node.db,
    async query(sql: string, params?: readonly unknown[]) {
      const res = await node.db.query(sql, params);
      if (sql.includes('pg_last_wal_replay_lsn')) res.rows[0].server = proxy.server;
      return res;
    },
  } as typeof node.db;
  return { node, proxy };
}

test('a write position from the old timeline never makes a read wait: it reads from the primary, and the new replica starts from its own position', async () => {
  let now = 1_000_000;
  const primary = fakeNode('primary');
  const { node: replica, proxy } = replicaBehindProxy();
  const positions = new WritePositions({ stickyMs: 30_000, now: () => now });
  const router = new ReadRouter({
    primary: primary.db,
    replica: proxy.db,
    positions,
    maxLagMs: 5_000,
    pollMs: 60_000,
    now: () => now,
  });
  const servedBy = async (keys: string[], client: bigint | null = null) =>
    (await (await router.readsFor(keys, client)).query<{ served_by: string }>('SELECT 1')).rows[0].served_by;
  // The old replica had replayed far on the old primary's timeline, and a caller wrote at 0/9000.
  replica.replay = '0/A000';
  await router.start();
  primary.insert = '0/9000';
  await router.afterWrite(['caller:a']);
  assert.equal(await servedBy(['caller:a']), 'replica');

  // Failover: that replica was promoted; the old primary rejoined (pg_rewind) and now answers behind
  // the same address, its replay on the new timeline behind the position the old replica reached.
  proxy.server = '127.0.0.1:5461@new';
  replica.replay = '0/5000';
  await router.poll();
  assert.equal(router.state.replay, parseLsn('0/5000'), "the new server's own position, not the larger old one");
  const t0 = Date.now();
  assert.equal(await servedBy(['caller:a']), 'primary', 'the write at 0/9000 is not known to be on the new replica');
  assert.equal(
    await servedBy(['caller:b'], parseLsn('0/FFFFF')),
    'primary',
    'a client position from the old timeline reads from the primary',
  );
  assert.ok(Date.now() - t0 < 100, 'without waiting');
  assert.equal(await servedBy(['caller:b']), 'replica', 'a read with nothing to see goes to the new replica');
  // Once the stickiness has passed, the caller reads from the replica again: nothing waits forever.
  now += 30_001;
  assert.equal(await servedBy(['caller:a']), 'replica');
  await router.stop();
});

test('a replica that is lost forgets its position: when it answers again, reads wait for its own fresh one', async () => {
  let now = 1_000_000;
  const primary = fakeNode('primary');
  const replica = fakeNode('replica');
  const positions = new WritePositions({ stickyMs: 30_000, now: () => now });
  const router = new ReadRouter({
    primary: primary.db,
    replica: replica.db,
    positions,
    maxLagMs: 5_000,
    pollMs: 60_000,
    now: () => now,
  });
  replica.replay = '0/A000';
  await router.start();
  replica.down = true;
  await router.poll();
  assert.equal(router.state.up, false);
  assert.equal(router.state.replay, null);
  replica.down = false;
  replica.replay = '0/3000';
  now += 1_000;
  await router.poll();
  assert.equal(router.state.up, true);
  assert.equal(router.state.replay, parseLsn('0/3000'));
  await router.stop();
});

/**
 * A proxy in front of PostgreSQL that, on the first connection only, sends the server's ReadyForQuery
 * and a FATAL 57P01 in one write, then closes: what a new session sees when the primary's backends are
 * terminated (or outlive their killed postmaster) the instant it is established.
 */
async function fatalAtReadyProxy(target: URL): Promise<{ port: number; fired: () => boolean; stop(): Promise<void> }> {
  const host = decodeURIComponent(target.hostname);
  const fields = Buffer.from('SFATAL\0VFATAL\0C57P01\0Mterminating connection due to administrator command\0\0');
  const fatal = Buffer.concat([Buffer.from('E'), Buffer.alloc(4), fields]);
  fatal.writeInt32BE(4 + fields.length, 1);
  let first = true;
  let fired = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = host.startsWith('/')
      ? net.connect(`${host}/.s.PGSQL.${target.port}`)
      : net.connect(Number(target.port), host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    const armed = first;
    first = false;
    if (!armed) return void upstream.pipe(client);
    let pending = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      // Server messages: a type byte and a length; pass whole ones on until the first ReadyForQuery ('Z').
      let at = 0;
      while (pending.length - at >= 5 && pending.length - at >= 1 + pending.readInt32BE(at + 1)) {
        const end = at + 1 + pending.readInt32BE(at + 1);
        if (pending[at] === 0x5a) {
          fired = true;
          client.end(Buffer.concat([pending.subarray(0, end), fatal]));
          upstream.destroy();
          return;
        }
        at = end;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    fired: () => fired,
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

test("a FATAL that arrives with a new connection's ReadyForQuery, before the caller holds the client, fails that call as unavailable and never crashes the process", async () => {
  const database = await openTestDatabase();
  const proxy = await fatalAtReadyProxy(new URL(database.url!));
  const url = new URL(database.url!);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  url.search = '';
  const db = openPg({ connectionString: url.toString(), poolSize: 2, connectTimeoutMs: 2_000 });
  const uncaught: Error[] = [];
  const listener = (err: Error) => uncaught.push(err);
  // Only to observe a regression here: unheard, the client's 'error' event is thrown from the socket's read.
  process.on('uncaughtException', listener);
  try {
    await assert.rejects(
      db.query('SELECT 1 AS n', []),
      (err: Error & { code?: string }) => err.code === '57P01' && unavailableReason(err) === 'shutdown',
    );
    assert.ok(proxy.fired(), 'the FATAL came in the same write as ReadyForQuery');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(
      uncaught.map((e) => e.message),
      [],
      'no uncaught error',
    );
    assert.equal((await db.query<{ n: number }>('SELECT 2 AS n', [])).rows[0].n, 2, 'the next checkout reconnects');
    assert.ok(db.health.dropped >= 1 && db.health.unavailable.shutdown >= 1, 'counted for /metrics');
  } finally {
    process.off('uncaughtException', listener);
    await db.close();
    await proxy.stop();
    await database.close();
  }
});
