import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { NOW, appointment, at, entryRow, join, list, queueWorld, type QueueWorld } from './queue-fixtures.ts';

const t = await startTestApp({ now: NOW });

const tryJoin = (w: QueueWorld, body: Record<string, unknown>) =>
  call(w.t.app, 'POST', '/api/v1/bookings/queue/join', { token: w.token, body: { store_id: w.storeId, ...body } });

const countEntries = async (w: QueueWorld) =>
  Number(
    (await w.t.db.query('SELECT count(*)::int AS n FROM queue_entries WHERE store_id = $1', [w.storeId])).rows[0].n,
  );

test('a guest joins and is answered with the entry, its place and the wait quoted at join', async () => {
  const w = await queueWorld(t);
  await appointment(w.t.db, w.storeId, w.unitA, at(-20), at(15));
  await appointment(w.t.db, w.storeId, w.unitB, at(-20), at(40));
  const res = await tryJoin(w, {
    guest_name: '  Robin  ',
    guest_phone: '07700 900123',
    service_id: w.serviceId,
    party_size: 1,
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.reused, false);
  const e = res.body.entry;
  assert.equal(e.store_id, w.storeId);
  assert.equal(e.guest_name, 'Robin');
  assert.equal(e.guest_phone, '07700 900123');
  assert.equal(e.service_id, w.serviceId);
  assert.equal(e.status, 'waiting');
  assert.equal(e.joined_at, at(0));
  assert.equal(e.queue_position, 1);
  assert.equal(e.suggested_unit_id, w.unitA);
  assert.equal(e.expected_start, at(15));
  assert.equal(e.quoted_wait_min, 15);
  assert.equal(e.expected_wait_min, 15);
  const row = await entryRow(w.t.db, e.entry_id);
  assert.equal(row.status, 'waiting');
  assert.equal(row.quoted_wait_min, 15);
});

test('the quoted wait is a snapshot: later changes to the diary move the expected wait, never the quote', async () => {
  const w = await queueWorld(t);
  await w.t.db.query('UPDATE units SET is_active = false WHERE id = $1', [w.unitB]);
  const e = await join(w, {});
  assert.equal(e.quoted_wait_min, 0);
  await appointment(w.t.db, w.storeId, w.unitA, at(0), at(50));
  const [entry] = (await list(w)).entries;
  assert.equal(entry.quoted_wait_min, 0);
  assert.equal(entry.expected_wait_min, 50);
});

test('a store customer joins by customer_id; a missing, erased or unrelated customer is 404, a blocked one refused', async () => {
  const w = await queueWorld(t);
  const customer = await w.t.fx.customer({ name: 'Cara' });
  await w.t.fx.membership(w.storeId, customer.id);
  const res = await tryJoin(w, { customer_id: customer.id });
  assert.equal(res.status, 200);
  assert.equal(res.body.entry.customer_id, customer.id);
  assert.equal(res.body.entry.guest_name, null);

  const missing = await tryJoin(w, { customer_id: '00000000-0000-4000-8000-000000000000' });
  assert.equal(missing.status, 404);
  assert.equal(errorCode(missing), 'NOT_FOUND');

  const erased = await w.t.fx.customer({ name: null });
  await w.t.fx.membership(w.storeId, erased.id);
  await w.t.db.query('UPDATE customers SET erased_at = $2 WHERE id = $1', [erased.id, at(-60)]);
  assert.equal((await tryJoin(w, { customer_id: erased.id })).status, 404);

  // A real person with no relationship to this store reads exactly like an unknown id.
  const stranger = await w.t.fx.customer({ name: 'Stranger' });
  const strangerRes = await tryJoin(w, { customer_id: stranger.id });
  assert.equal(strangerRes.status, 404);
  assert.equal(errorCode(strangerRes), 'NOT_FOUND');

  const blocked = await w.t.fx.customer({ name: 'Blocked' });
  await w.t.fx.membership(w.storeId, blocked.id);
  await w.t.db.query(
    'UPDATE store_customers SET blocked = true, blocked_at = $3 WHERE store_id = $1 AND customer_id = $2',
    [w.storeId, blocked.id, at(-60)],
  );
  const refused = await tryJoin(w, { customer_id: blocked.id });
  assert.equal(refused.status, 409);
  assert.equal(errorCode(refused), 'CUSTOMER_BLOCKED');
  assert.equal(await countEntries(w), 1);
});

test('an entry needs customer_id or guest_name', async () => {
  const w = await queueWorld(t);
  for (const body of [
    {},
    { guest_name: '   ' },
    { guest_name: null, customer_id: null },
    { guest_phone: '07700900123' },
  ]) {
    const res = await tryJoin(w, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(errorCode(res), 'WALK_IN_NAME_REQUIRED');
  }
  const unknown = await tryJoin(w, { guest_name: 'X', surname: 'Y' });
  assert.equal(unknown.status, 400);
  assert.equal(errorCode(unknown), 'VALIDATION_FAILED');
  assert.equal(await countEntries(w), 0);
});

test("service and preferred unit must be this store's: another store's or an archived service is 404, an inactive unit refused", async () => {
  const w = await queueWorld(t);
  const other = await queueWorld(w.t);
  const cases: Array<[Record<string, unknown>, number, string]> = [
    [{ service_id: other.serviceId }, 404, 'NOT_FOUND'],
    [{ preferred_unit_id: other.unitA }, 404, 'NOT_FOUND'],
  ];
  const archived = await w.t.fx.service(w.storeId, { name: 'Old' });
  await w.t.db.query('UPDATE services SET is_active = false WHERE id = $1', [archived.id]);
  cases.push([{ service_id: archived.id }, 404, 'NOT_FOUND']);
  const inactive = await w.t.fx.unit(w.storeId, { display_name: 'Off', is_active: false });
  cases.push([{ preferred_unit_id: inactive.id }, 409, 'UNIT_NOT_BOOKABLE']);
  for (const [body, status, code] of cases) {
    const res = await tryJoin(w, { guest_name: 'G', ...body });
    assert.equal(res.status, status, JSON.stringify(body));
    assert.equal(errorCode(res), code);
  }
  assert.equal(await countEntries(w), 0);
});

test('with several things wrong at once the first check answers: a retry, then the walk-in mode, then customer, service and unit', async () => {
  const w = await queueWorld(t);
  const other = await queueWorld(w.t);
  const first = await tryJoin(w, { guest_name: 'Early', client_token: 'door-1' });
  assert.equal(first.status, 200);
  const blocked = await w.t.fx.customer({ name: 'Blocked' });
  await w.t.fx.membership(w.storeId, blocked.id);
  await w.t.db.query(
    'UPDATE store_customers SET blocked = true, blocked_at = $3 WHERE store_id = $1 AND customer_id = $2',
    [w.storeId, blocked.id, at(-60)],
  );
  const archived = await w.t.fx.service(w.storeId, { name: 'Old' });
  await w.t.db.query('UPDATE services SET is_active = false WHERE id = $1', [archived.id]);
  const inactive = await w.t.fx.unit(w.storeId, { display_name: 'Off', is_active: false });
  const missingCustomer = '00000000-0000-4000-8000-000000000000';
  await w.t.db.query("UPDATE stores SET walkin_mode = 'appointments_only' WHERE id = $1", [w.storeId]);

  // A retry is answered with its entry, whatever else has changed or is wrong since.
  const retry = await tryJoin(w, {
    customer_id: blocked.id,
    service_id: archived.id,
    preferred_unit_id: inactive.id,
    client_token: 'door-1',
  });
  assert.equal(retry.status, 200);
  assert.equal(retry.body.reused, true);
  assert.equal(retry.body.entry.entry_id, first.body.entry.entry_id);

  const disabled = await tryJoin(w, {
    customer_id: missingCustomer,
    service_id: archived.id,
    preferred_unit_id: other.unitA,
  });
  assert.equal(disabled.status, 409);
  assert.equal(errorCode(disabled), 'WALK_INS_DISABLED');

  await w.t.db.query("UPDATE stores SET walkin_mode = 'mixed' WHERE id = $1", [w.storeId]);
  const cases: Array<[Record<string, unknown>, number, string, RegExp]> = [
    [
      { customer_id: missingCustomer, service_id: other.serviceId, preferred_unit_id: other.unitA },
      404,
      'NOT_FOUND',
      /Customer/,
    ],
    [
      { customer_id: blocked.id, service_id: archived.id, preferred_unit_id: inactive.id },
      409,
      'CUSTOMER_BLOCKED',
      /blocked/,
    ],
    [{ guest_name: 'G', service_id: archived.id, preferred_unit_id: other.unitA }, 404, 'NOT_FOUND', /Service/],
    [{ guest_name: 'G', service_id: other.serviceId, preferred_unit_id: inactive.id }, 404, 'NOT_FOUND', /Service/],
    [{ guest_name: 'G', service_id: w.serviceId, preferred_unit_id: other.unitA }, 404, 'NOT_FOUND', /Unit/],
  ];
  for (const [body, status, code, message] of cases) {
    const res = await tryJoin(w, body);
    assert.equal(res.status, status, JSON.stringify(body));
    assert.equal(errorCode(res), code, JSON.stringify(body));
    assert.match(res.body.error.message, message, JSON.stringify(body));
  }
  assert.equal(await countEntries(w), 1);
});

test('a store that takes appointments only refuses walk-ins; an unset mode admits them', async () => {
  const w = await queueWorld(t, { walkin_mode: 'appointments_only' });
  const res = await tryJoin(w, { guest_name: 'G' });
  assert.equal(res.status, 409);
  assert.equal(errorCode(res), 'WALK_INS_DISABLED');
  assert.equal(await countEntries(w), 0);

  await w.t.db.query('UPDATE stores SET walkin_mode = NULL WHERE id = $1', [w.storeId]);
  assert.equal((await tryJoin(w, { guest_name: 'G' })).status, 200);
});

test('a join retried with the same client_token returns the first entry and queues once', async () => {
  const w = await queueWorld(t);
  const first = await tryJoin(w, { guest_name: 'Once', client_token: 'tablet-42' });
  w.t.clock.advance(60_000);
  const again = await tryJoin(w, { guest_name: 'Once', client_token: 'tablet-42' });
  assert.equal(again.status, 200);
  assert.equal(again.body.reused, true);
  assert.equal(again.body.entry.entry_id, first.body.entry.entry_id);
  assert.equal(again.body.entry.joined_at, at(0));
  assert.equal(await countEntries(w), 1);
});

test("the entry joins the token's store whatever store_id the body names", async () => {
  const w = await queueWorld(t);
  const other = await queueWorld(w.t);
  const res = await tryJoin(w, { store_id: other.storeId, guest_name: 'G' });
  assert.equal(res.status, 200);
  assert.equal(res.body.entry.store_id, w.storeId);
  assert.equal(await countEntries(other), 0);
});
