// Who may use the queue: the can_use_bookings entitlement, the authenticated store only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { NOW, entryRow, join, post, queueWorld } from './queue-fixtures.ts';

const t = await startTestApp({ now: NOW });

test('every queue operation needs the can_use_bookings entitlement (403 MISSING_ENTITLEMENT), and changes nothing without it', async () => {
  const w = await queueWorld(t);
  const e = await join(w);
  const token = await t.fx.merchantToken(w.storeId, { entitlements: ['classes'] });
  const attempts = [
    call(t.app, 'GET', '/api/v1/bookings/queue', { token, query: { store_id: w.storeId } }),
    call(t.app, 'POST', '/api/v1/bookings/queue/join', { token, body: { store_id: w.storeId, guest_name: 'G' } }),
    post(w, 'call', { entry_id: e.entry_id }, token),
    post(w, 'assign', { entry_id: e.entry_id, unit_id: w.unitA }, token),
    post(w, 'remove', { entry_id: e.entry_id, status: 'left' }, token),
  ];
  for (const res of await Promise.all(attempts)) {
    assert.equal(res.status, 403);
    assert.equal(errorCode(res), 'MISSING_ENTITLEMENT');
  }
  assert.equal((await entryRow(t.db, e.entry_id)).status, 'waiting');
  const n = await t.db.query('SELECT count(*)::int AS n FROM queue_entries WHERE store_id = $1', [w.storeId]);
  assert.equal(n.rows[0].n, 1);
});

test('reading the queue needs merchant:read, changing it merchant:write', async () => {
  const w = await queueWorld(t);
  const e = await join(w);
  const reader = await t.fx.merchantToken(w.storeId, { scopes: ['merchant:read'] });
  const read = await call(t.app, 'GET', '/api/v1/bookings/queue', { token: reader, query: { store_id: w.storeId } });
  assert.equal(read.status, 200);
  const write = await post(w, 'call', { entry_id: e.entry_id }, reader);
  assert.equal(write.status, 403);
  assert.equal(errorCode(write), 'INSUFFICIENT_SCOPE');
  assert.equal((await call(t.app, 'GET', '/api/v1/bookings/queue', { query: { store_id: w.storeId } })).status, 401);
});

test("another store's entry reads as missing (404) for call, assign and remove, and is left untouched", async () => {
  const w = await queueWorld(t);
  const other = await queueWorld(t);
  const theirs = await join(other);
  for (const [action, body] of [
    ['call', {}],
    ['assign', { unit_id: w.unitA }],
    ['remove', { status: 'left' }],
  ] as const) {
    // Naming the other store in store_id changes nothing: the token's store wins.
    const res = await post(w, action, { entry_id: theirs.entry_id, store_id: other.storeId, ...body });
    assert.equal(res.status, 404, action);
    assert.equal(errorCode(res), 'NOT_FOUND');
  }
  const row = await entryRow(t.db, theirs.entry_id);
  assert.deepEqual([row.status, row.called_at, row.appointment_id], ['waiting', null, null]);
});

test('an entry id that does not exist is 404; a malformed one is 400', async () => {
  const w = await queueWorld(t);
  const missing = await post(w, 'call', { entry_id: '00000000-0000-4000-8000-000000000000' });
  assert.equal(missing.status, 404);
  const malformed = await post(w, 'remove', { entry_id: 'nope', status: 'left' });
  assert.equal(malformed.status, 400);
  assert.equal(errorCode(malformed), 'VALIDATION_FAILED');
  const badStatus = await post(w, 'remove', { entry_id: '00000000-0000-4000-8000-000000000000', status: 'completed' });
  assert.equal(badStatus.status, 400);
  const noStore = await call(t.app, 'GET', '/api/v1/bookings/queue', { token: w.token });
  assert.equal(noStore.status, 400);
  assert.equal(errorCode(noStore), 'VALIDATION_FAILED');
});

test('the queue operations are published in the OpenAPI document', async () => {
  const res = await call(t.app, 'GET', '/openapi.json');
  assert.equal(res.status, 200);
  const ops = Object.values(res.body.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((p) =>
    Object.values(p).map((o) => o.operationId),
  );
  for (const id of ['listQueue', 'joinQueue', 'callQueueEntry', 'assignQueueEntry', 'removeQueueEntry'])
    assert.ok(ops.includes(id), id);
});
