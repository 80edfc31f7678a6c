// Concurrent seating, on both engines (each is real PostgreSQL with a pool of connections, so the
// requests do run at once). The second app is another instance in this process, with its own pool,
// as a second process would have.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { NOW, entryRow, join, queueWorld } from './queue-fixtures.ts';

const ROUNDS = 5;

test('two staff seating the same entry at once book one appointment; the other is told it is already assigned', async () => {
  const t = await startTestApp({ now: NOW });
  const sibling = await t.sibling();
  for (let round = 0; round < ROUNDS; round++) {
    const w = await queueWorld(t);
    const e = await join(w);
    const assign = (app: typeof t.app, unitId: string) =>
      call(app, 'POST', '/api/v1/bookings/queue/assign', {
        token: w.token,
        body: { store_id: w.storeId, entry_id: e.entry_id, unit_id: unitId },
      });
    // Different units, so only the entry's lock (not the slot) decides.
    const results = await Promise.all([assign(t.app, w.unitA), assign(sibling, w.unitB)]);
    const winners = results.filter((r) => r.status === 200 && r.body.assigned === true);
    assert.equal(winners.length, 1, JSON.stringify(results.map((r) => r.body)));
    const loser = results.find((r) => r !== winners[0])!;
    if (loser.status === 200) {
      assert.deepEqual(loser.body, {
        entry_id: e.entry_id,
        appointment_id: winners[0].body.appointment_id,
        assigned: false,
      });
    } else {
      assert.equal(errorCode(loser), 'STALE_SLOT');
    }
    const appts = await t.db.query('SELECT id FROM appointments WHERE store_id = $1', [w.storeId]);
    assert.deepEqual(
      appts.rows.map((r) => r.id),
      [winners[0].body.appointment_id],
    );
    const row = await entryRow(t.db, e.entry_id);
    assert.deepEqual([row.status, row.appointment_id], ['assigned', winners[0].body.appointment_id]);
  }
});

test('two entries seated at the same unit at once: one wins, the other gets STALE_SLOT and keeps its place', async () => {
  const t = await startTestApp({ now: NOW });
  const sibling = await t.sibling();
  for (let round = 0; round < ROUNDS; round++) {
    const w = await queueWorld(t);
    const first = await join(w, { guest_name: 'First' });
    const second = await join(w, { guest_name: 'Second' });
    const assign = (app: typeof t.app, entryId: string) =>
      call(app, 'POST', '/api/v1/bookings/queue/assign', {
        token: w.token,
        body: { store_id: w.storeId, entry_id: entryId, unit_id: w.unitA },
      });
    const results = await Promise.all([assign(t.app, first.entry_id), assign(sibling, second.entry_id)]);
    const won = results.filter((r) => r.status === 200);
    const lost = results.filter((r) => r.status === 409);
    assert.equal(won.length, 1, JSON.stringify(results.map((r) => r.body)));
    assert.equal(lost.length, 1);
    assert.equal(errorCode(lost[0]), 'STALE_SLOT');
    const loserId = won[0].body.entry_id === first.entry_id ? second.entry_id : first.entry_id;
    const loser = await entryRow(t.db, loserId);
    assert.deepEqual([loser.status, loser.appointment_id], ['waiting', null]);
    const live = await call(t.app, 'GET', '/api/v1/bookings/queue', { token: w.token, query: { store_id: w.storeId } });
    assert.deepEqual(
      live.body.entries.map((e: any) => [e.entry_id, e.queue_position]),
      [[loserId, 1]],
    );
    const appts = await t.db.query('SELECT count(*)::int AS n FROM appointments WHERE store_id = $1 AND unit_id = $2', [
      w.storeId,
      w.unitA,
    ]);
    assert.equal(appts.rows[0].n, 1);
  }
});

test('two joins with the same client_token at once queue one entry; both are answered with it', async () => {
  const t = await startTestApp({ now: NOW });
  const sibling = await t.sibling();
  for (let round = 0; round < ROUNDS; round++) {
    const w = await queueWorld(t);
    const send = (app: typeof t.app) =>
      call(app, 'POST', '/api/v1/bookings/queue/join', {
        token: w.token,
        body: { store_id: w.storeId, guest_name: 'Kiosk', client_token: 'kiosk-1' },
      });
    const results = await Promise.all([send(t.app), send(sibling)]);
    assert.deepEqual(
      results.map((r) => r.status),
      [200, 200],
    );
    assert.equal(results[0].body.entry.entry_id, results[1].body.entry.entry_id);
    assert.deepEqual(results.map((r) => r.body.reused).sort(), [false, true]);
    const n = await t.db.query('SELECT count(*)::int AS n FROM queue_entries WHERE store_id = $1', [w.storeId]);
    assert.equal(n.rows[0].n, 1);
  }
});
