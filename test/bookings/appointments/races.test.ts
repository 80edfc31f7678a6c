// Races, on both engines: each is real PostgreSQL behind a pool of connections, so concurrent
// requests reach the database at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorCode, type CallResult } from '../../support/http.ts';
import { secondServer } from '../../support/second-server.ts';
import { BASE, booked, count, create, overlappingLiveBlocks, post, row, world } from './helpers.ts';

const w = await world({ now: '2026-06-01T09:00:00Z' });

function tally(results: CallResult[]) {
  const codes = results.map((r) => (r.status === 200 ? 'ok' : errorCode(r)));
  return {
    ok: codes.filter((c) => c === 'ok').length,
    taken: codes.filter((c) => c === 'SLOT_TAKEN').length,
    serverErrors: results.filter((r) => r.status >= 500).length,
    codes: [...new Set(codes)],
  };
}

test('50 concurrent creates for one slot on one unit: exactly one 200, 49 SLOT_TAKEN, zero 5xx, no overlapping live blocks', async () => {
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      create(w, { starts_at: '2026-06-02T10:00:00Z', ends_at: '2026-06-02T11:00:00Z', guest_name: `Racer ${i}` }),
    ),
  );
  const t = tally(results);
  assert.deepEqual(
    { ok: t.ok, taken: t.taken, serverErrors: t.serverErrors },
    { ok: 1, taken: 49, serverErrors: 0 },
    t.codes.join(),
  );
  assert.equal(await count(w, "SELECT count(*) AS n FROM appointments WHERE starts_at = '2026-06-02T10:00:00Z'"), 1);
  assert.equal(await overlappingLiveBlocks(w), 0);
});

test('the same split holds across two server processes sharing the database', async () => {
  // The second is a real process (node src/server.ts, as deployed, as the reliability proofs start
  // it) on this test's database; it keeps the system clock, so the slot is in 2027, ahead of both.
  const second = await secondServer(w.t.url!);
  try {
    await second.spawn(); // killed in finally even when it does not become ready (its pipes would keep this file running)
    const slot = { starts_at: '2027-06-03T10:00:00.000Z', ends_at: '2027-06-03T11:00:00.000Z' };
    const overHttp = async (): Promise<CallResult> => {
      const res = await fetch(`${second.baseUrl}${BASE}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${w.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          store_id: w.storeId,
          unit_id: w.unitId,
          guest_name: 'Gail Guest',
          guest_email: 'gail@example.com',
          ...slot,
        }),
      });
      return { status: res.status, body: await res.json(), headers: Object.fromEntries(res.headers) };
    };
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? overHttp() : create(w, slot))));
    const t = tally(results);
    assert.deepEqual(
      { ok: t.ok, taken: t.taken, serverErrors: t.serverErrors },
      { ok: 1, taken: 49, serverErrors: 0 },
      t.codes.join(),
    );
    assert.equal(await count(w, `SELECT count(*) AS n FROM appointments WHERE starts_at = '${slot.starts_at}'`), 1);
    assert.equal(await overlappingLiveBlocks(w), 0);
  } finally {
    await second.kill();
  }
});

test('staggered overlapping creates never leave two live blocks overlapping', async () => {
  // 40 requests, each 60 minutes long, starting every 5 minutes: many pairwise overlaps.
  const base = Date.parse('2026-06-04T08:00:00Z');
  const results = await Promise.all(
    Array.from({ length: 40 }, (_, i) => {
      const start = new Date(base + i * 5 * 60_000);
      return create(w, {
        starts_at: start.toISOString(),
        ends_at: new Date(start.getTime() + 3_600_000).toISOString(),
      });
    }),
  );
  const t = tally(results);
  assert.equal(t.serverErrors, 0);
  assert.equal(t.ok + t.taken, 40, t.codes.join());
  assert.ok(t.ok >= 1);
  assert.equal(await overlappingLiveBlocks(w), 0);
});

test('concurrent retries with one client_token return one appointment: one reused false, the rest reused true', async () => {
  const units = [w.unitId, (await w.t.fx.unit(w.storeId, { display_name: 'Chair B' })).id];
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      // Half name another unit: the unique client_token index, not the unit lock, has to decide.
      create(w, {
        client_token: 'race-token',
        unit_id: units[i % 2],
        starts_at: '2026-06-05T10:00:00Z',
        ends_at: '2026-06-05T11:00:00Z',
      }),
    ),
  );
  assert.deepEqual(
    results.map((r) => r.status),
    Array(20).fill(200),
    JSON.stringify(results.find((r) => r.status !== 200)?.body),
  );
  const ids = new Set(results.map((r) => r.body.appointment.id));
  assert.equal(ids.size, 1);
  assert.equal(results.filter((r) => r.body.reused === false).length, 1);
  assert.equal(await count(w, "SELECT count(*) AS n FROM appointments WHERE client_token = 'race-token'"), 1);
});

test('two colleagues settling at once: one settled, one already_settled naming the other; one record', async () => {
  const id = await booked(w, { price_pence: 4200, starts_at: '2026-06-06T10:00:00Z', ends_at: '2026-06-06T11:00:00Z' });
  const sam = w.token;
  const pat = await w.t.fx.merchantToken(w.storeId, { userId: 'staff-2', staffName: 'Pat Partner' });
  const [a, b] = await Promise.all([
    post(w, 'settle', { appointment_id: id, method: 'cash' }, { token: sam }),
    post(w, 'settle', { appointment_id: id, method: 'card_machine' }, { token: pat }),
  ]);
  assert.equal(a.status, 200);
  assert.equal(b.status, 200);
  const outcomes = [a.body.outcome, b.body.outcome].sort();
  assert.deepEqual(outcomes, ['already_settled', 'settled']);
  const winner = a.body.outcome === 'settled' ? a.body : b.body;
  const loser = a.body.outcome === 'settled' ? b.body : a.body;
  assert.equal(loser.settled_by_name, winner.settled_by_name);
  assert.equal(loser.settled_by_you, false);
  assert.equal(loser.method, winner.method);
  assert.equal(loser.collected_pence, 0);
  assert.equal(loser.settled_total_pence, 4200);
  assert.equal(winner.collected_pence, 4200);
  assert.equal(await count(w, 'SELECT count(*) AS n FROM settlements WHERE appointment_id = $1', [id]), 1);
  const sum = await count(w, 'SELECT sum(amount_pence) AS n FROM settlements WHERE appointment_id = $1', [id]);
  assert.equal((await row(w, id)).settled_pence, sum);
});

test('concurrent check-ins: one changes the status, the others are noop repeats', async () => {
  const id = await booked(w, { starts_at: '2026-06-07T10:00:00Z', ends_at: '2026-06-07T11:00:00Z' });
  const results = await Promise.all(Array.from({ length: 10 }, () => post(w, 'check-in', { appointment_id: id })));
  assert.deepEqual(
    results.map((r) => r.status),
    Array(10).fill(200),
  );
  assert.equal(results.filter((r) => r.body.noop === false).length, 1);
  assert.equal(
    await count(w, "SELECT count(*) AS n FROM audit_log WHERE entity_id = $1 AND action = 'appointment.checked_in'", [
      id,
    ]),
    1,
  );
});

test('concurrent moves into one free slot: one wins, the others are SLOT_TAKEN and stay where they were', async () => {
  const ids = await Promise.all(
    [8, 9, 10, 11, 12].map((h) =>
      booked(w, {
        starts_at: `2026-06-08T${String(h).padStart(2, '0')}:00:00Z`,
        ends_at: `2026-06-08T${String(h).padStart(2, '0')}:30:00Z`,
      }),
    ),
  );
  const before = await Promise.all(ids.map((id) => row(w, id)));
  const results = await Promise.all(
    ids.map((id) =>
      post(w, 'reschedule', {
        appointment_id: id,
        unit_id: w.unitId,
        starts_at: '2026-06-08T15:00:00Z',
        ends_at: '2026-06-08T16:00:00Z',
      }),
    ),
  );
  const t = tally(results);
  assert.deepEqual(
    { ok: t.ok, taken: t.taken, serverErrors: t.serverErrors },
    { ok: 1, taken: 4, serverErrors: 0 },
    t.codes.join(),
  );
  for (const [i, res] of results.entries()) {
    if (res.status !== 200) assert.deepEqual(await row(w, ids[i]), before[i]);
  }
  assert.equal(await overlappingLiveBlocks(w), 0);
});
