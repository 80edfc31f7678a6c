// The read replica through the whole app (server engine): a write answers with its WAL position
// (X-Read-After); the merchant's next diary read comes from the primary and shows the write while
// the replica is behind it, and from the replica once the replica has replayed past it; another
// store reads from the replica meanwhile; a replica that fails answers from the primary with no
// error. The replica here is the test database behind a wrapper whose replay position the test
// sets (the real streaming replica is proved in reliability/proofs/replica.ts).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../src/app.ts';
import { fixedClock } from '../../src/platform/clock.ts';
import { createTokenService } from '../../src/platform/auth/tokens.ts';
import type { Database } from '../../src/platform/db/port.ts';
import { ReadRouter } from '../../src/platform/db/read-routing.ts';
import { WritePositions } from '../../src/platform/db/write-positions.ts';
import { parseLsn } from '../../src/platform/db/wal-position.ts';
import { openTestDatabase } from '../support/engine.ts';
import { testConfig } from '../support/app.ts';
import { Fixtures } from '../support/fixtures.ts';

/** The real database as a "replica" whose replay position and health the test decides; it counts the statements it serves. */
function replicaOf(real: Database) {
  const r = { replay: '0/0', down: false, served: 0, db: null as unknown as Database };
  r.db = {
    engine: 'pg',
    async query(sql, params, options) {
      if (r.down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5442'), { code: 'ECONNREFUSED' });
      if (sql.includes('pg_last_wal_replay_lsn'))
        return { rows: [{ standby: true, replay: r.replay, lag_ms: 0 }] as any[], rowCount: 1 };
      r.served++;
      return real.query(sql, params, options);
    },
    transaction: (fn) => real.transaction(fn),
    exec: (sql) => real.exec(sql),
    ping: () => real.ping(),
    close: async () => {},
  };
  return r;
}

/** An app on a fresh database whose reads go through a router to a stand-in replica replayed to `replay` (or now). */
async function routedApp(replay: string | null) {
  const testDb = await openTestDatabase();
  const config = testConfig({ DATABASE_URL: testDb.url!, DATABASE_READ_URL: testDb.url! });
  const clock = fixedClock('2026-06-01T09:00:00Z');
  const tokens = createTokenService(config);
  const replica = replicaOf(testDb.db);
  const current = async () =>
    (await testDb.db.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn;
  replica.replay = replay ?? (await current());
  const router = new ReadRouter({
    primary: testDb.db,
    replica: replica.db,
    positions: new WritePositions({ stickyMs: 30_000 }),
    maxLagMs: 5_000,
    pollMs: 60_000,
  });
  await router.start();
  const app = await buildApp({ config, db: testDb.db, reads: router, clock, tokens, logger: false });
  after(async () => {
    await app.close();
    await router.stop();
    await testDb.close();
  });
  return { testDb, config, clock, tokens, replica, current, router, app, fx: new Fixtures(testDb.db, tokens, clock) };
}

test('a merchant reads their own write at once; the replica serves once it has replayed past it, and a failed replica is invisible', async () => {
  const { testDb, config, clock, tokens, replica, current, router, app, fx } = await routedApp(null);
  const store = await fx.store();
  const unit = await fx.unit(store.id);
  const other = await fx.store();
  await fx.unit(other.id);
  const token = await fx.merchantToken(store.id);
  const otherToken = await fx.merchantToken(other.id);
  replica.replay = await current();
  await router.poll();

  const diary = (t: string, storeId: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'GET',
      url: `/api/v1/bookings/diary?store_id=${storeId}&from_date=2026-06-02&to_date=2026-06-02`,
      headers: { authorization: `Bearer ${t}`, ...headers },
    });
  const ids = (res: { json(): any }) => res.json().units.flatMap((u: any) => u.appointments.map((a: any) => a.id));

  // Nothing written yet: the replica serves.
  let before = replica.served;
  assert.equal((await diary(token, store.id)).statusCode, 200);
  assert.ok(replica.served > before, 'the diary was read on the replica');

  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/bookings/appointments',
    headers: { authorization: `Bearer ${token}` },
    payload: {
      store_id: store.id,
      unit_id: unit.id,
      starts_at: '2026-06-02T10:00:00Z',
      ends_at: '2026-06-02T11:00:00Z',
      guest_name: 'Gail',
      guest_email: 'gail@example.com',
    },
  });
  assert.equal(created.statusCode, 200);
  const id = created.json().appointment.id;
  const position = created.headers['x-read-after'] as string;
  assert.ok(
    parseLsn(position)! > parseLsn(replica.replay)!,
    `the write's position ${position} is past the replica's ${replica.replay}`,
  );

  // The replica has not replayed the write: the merchant's read comes from the primary and shows it.
  before = replica.served;
  const mine = await diary(token, store.id);
  assert.equal(mine.statusCode, 200);
  assert.deepEqual(ids(mine), [id]);
  assert.equal(replica.served, before, 'not read on the replica');
  // Another store has written nothing: its reads still go to the replica.
  assert.equal((await diary(otherToken, other.id)).statusCode, 200);
  assert.ok(replica.served > before);

  // A second process knows nothing of the write, but the client sends the position back.
  const sibling = await buildApp({
    config,
    db: testDb.db,
    reads: new ReadRouter({
      primary: testDb.db,
      replica: replica.db,
      positions: new WritePositions({ stickyMs: 30_000 }),
      maxLagMs: 5_000,
      pollMs: 60_000,
    }),
    clock,
    tokens,
    logger: false,
  });
  after(() => sibling.close());
  before = replica.served;
  const viaHeader = await sibling.inject({
    method: 'GET',
    url: `/api/v1/bookings/diary?store_id=${store.id}&from_date=2026-06-02&to_date=2026-06-02`,
    headers: { authorization: `Bearer ${token}`, 'x-read-after': position },
  });
  assert.deepEqual(ids(viaHeader), [id]);
  assert.equal(replica.served, before, 'held on the primary by the header');

  // Once the replica has replayed past the write, it serves the merchant again.
  replica.replay = position;
  await router.poll();
  before = replica.served;
  const later = await diary(token, store.id);
  assert.deepEqual(ids(later), [id]);
  assert.ok(replica.served > before, 'read on the replica');

  // The replica fails: the answer comes from the primary, with no error.
  replica.down = true;
  const failed = await diary(token, store.id);
  assert.equal(failed.statusCode, 200);
  assert.deepEqual(ids(failed), [id]);
  assert.equal(router.state.up, false);
  assert.ok(router.stats().fallbacks >= 1);
});

test('reads of the availability search, roster and customer search go through the read handle; the event feed does not', async () => {
  const { replica, app, fx } = await routedApp('FFFFFFFF/0');
  const store = await fx.store();
  await fx.unit(store.id);
  const service = await fx.service(store.id);
  const token = await fx.merchantToken(store.id);
  const get = (url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  for (const url of [
    `/api/v1/bookings/availability?store_id=${store.id}&service_id=${service.id}&from_date=2026-06-02&to_date=2026-06-03`,
    `/api/v1/customers/list?store_id=${store.id}`,
    `/api/v1/customers/search?store_id=${store.id}&q=ga`,
  ]) {
    const before = replica.served;
    const res = await get(url);
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    assert.ok(replica.served > before, `${url} was read on the replica`);
  }
  const before = replica.served;
  const feed = await get(`/api/v1/events?store_id=${store.id}`);
  assert.equal(feed.statusCode, 200, feed.body);
  assert.equal(replica.served, before, 'the event feed stays on the primary');
});
