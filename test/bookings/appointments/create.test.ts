import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorCode } from '../../support/http.ts';
import { auditCount, booked, count, create, forceStatus, overlappingLiveBlocks, post, row, world } from './helpers.ts';

const w = await world();

test('a guest booking returns the whole appointment, confirmed, with the service price snapshotted', async () => {
  const service = await w.t.fx.service(w.storeId, { price_pence: 4500, party_max: 4 });
  const res = await create(w, {
    service_id: service.id,
    guest_name: ' Gail Guest ',
    guest_email: 'Gail@Example.com',
    guest_phone: '+447700900123',
    party_size: 2,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.reused, false);
  const a = res.body.appointment;
  assert.deepEqual(Object.keys(a).sort(), [
    'balance_pence',
    'children',
    'currency',
    'customer_id',
    'deposit_pence',
    'ends_at',
    'guest_email',
    'guest_name',
    'guest_phone',
    'high_chairs',
    'id',
    'is_override',
    'party_size',
    'payment_status',
    'price_pence',
    'service_id',
    'source',
    'starts_at',
    'status',
    'store_id',
    'unit_id',
  ]);
  assert.deepEqual(
    { ...a, id: undefined },
    {
      id: undefined,
      store_id: w.storeId,
      unit_id: w.unitId,
      service_id: service.id,
      customer_id: null,
      guest_name: 'Gail Guest',
      guest_email: 'gail@example.com',
      guest_phone: '+447700900123',
      starts_at: '2026-06-02T10:00:00.000Z',
      ends_at: '2026-06-02T11:00:00.000Z',
      status: 'confirmed',
      payment_status: 'none',
      price_pence: 4500,
      deposit_pence: 0,
      balance_pence: 4500,
      currency: 'GBP',
      party_size: 2,
      children: 0,
      high_chairs: 0,
      source: 'merchant',
      is_override: false,
    },
  );
  const r = await row(w, a.id);
  assert.equal(r.status, 'confirmed');
  assert.equal(r.price_pence, 4500);
  assert.equal(await auditCount(w, a.id, 'appointment.created'), 1);
  // The snapshot survives a later change of the service's price.
  await w.t.db.query('UPDATE services SET price_pence = 9999 WHERE id = $1', [service.id]);
  assert.equal((await row(w, a.id)).price_pence, 4500);
});

test('the price in the body wins over the service; with neither the price is 0', async () => {
  const service = await w.t.fx.service(w.storeId, { price_pence: 4500 });
  const a = await create(w, {
    service_id: service.id,
    price_pence: 1234,
    starts_at: '2026-06-03T10:00:00Z',
    ends_at: '2026-06-03T10:30:00Z',
  });
  assert.equal(a.body.appointment.price_pence, 1234);
  assert.equal(a.body.appointment.balance_pence, 1234);
  const b = await create(w, { starts_at: '2026-06-03T11:00:00Z', ends_at: '2026-06-03T11:30:00Z' });
  assert.equal(b.body.appointment.price_pence, 0);
  assert.equal(b.body.appointment.service_id, null);
  assert.equal(b.body.appointment.currency, 'GBP');
});

test("the currency is the store's", async () => {
  const other = await world({}, { currency: 'EUR' });
  const res = await create(other);
  assert.equal(res.body.appointment.currency, 'EUR');
});

test('a booking with neither customer_id nor guest_email is refused: GUEST_CONTACT_REQUIRED, nothing booked', async () => {
  const before = await count(w, 'SELECT count(*) AS n FROM appointments');
  const res = await create(w, {
    guest_email: null,
    starts_at: '2026-06-04T10:00:00Z',
    ends_at: '2026-06-04T11:00:00Z',
  });
  assert.equal(res.status, 400);
  assert.equal(errorCode(res), 'GUEST_CONTACT_REQUIRED');
  assert.equal(await count(w, 'SELECT count(*) AS n FROM appointments'), before);
});

test("an account booking of one of the store's customers needs no guest email and refreshes the relationship", async () => {
  const customer = await w.t.fx.customer({ name: 'Casey Customer' });
  await w.t.fx.membership(w.storeId, customer.id);
  const res = await create(w, {
    customer_id: customer.id,
    guest_email: undefined,
    guest_name: undefined,
    starts_at: '2026-06-05T10:00:00Z',
    ends_at: '2026-06-05T11:00:00Z',
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.appointment.customer_id, customer.id);
  assert.equal(res.body.appointment.guest_email, null);
  assert.equal(
    await count(w, 'SELECT count(*) AS n FROM store_customers WHERE store_id = $1 AND customer_id = $2', [
      w.storeId,
      customer.id,
    ]),
    1,
  );
});

test("an unknown customer_id, or another store's customer, is 404 NOT_FOUND; an erased customer is 409 CUSTOMER_ERASED", async () => {
  const unknown = await create(w, {
    customer_id: '00000000-0000-4000-8000-000000000001',
    starts_at: '2026-06-05T12:00:00Z',
    ends_at: '2026-06-05T13:00:00Z',
  });
  assert.equal(unknown.status, 404);
  assert.equal(errorCode(unknown), 'NOT_FOUND');
  // A real person with no relationship to this store reads exactly like an unknown id.
  const stranger = await w.t.fx.customer({ name: 'Someone Elsewhere' });
  const otherStore = await w.t.fx.store({ name: 'Elsewhere' });
  await w.t.fx.membership(otherStore.id, stranger.id);
  const strangerRes = await create(w, {
    customer_id: stranger.id,
    starts_at: '2026-06-05T12:00:00Z',
    ends_at: '2026-06-05T13:00:00Z',
  });
  assert.equal(strangerRes.status, 404);
  assert.equal(errorCode(strangerRes), 'NOT_FOUND');
  assert.equal(
    await count(w, 'SELECT count(*) AS n FROM store_customers WHERE store_id = $1 AND customer_id = $2', [
      w.storeId,
      stranger.id,
    ]),
    0,
  );
  const erased = await w.t.fx.customer({ name: null });
  await w.t.fx.membership(w.storeId, erased.id);
  await w.t.db.query('UPDATE customers SET erased_at = $2 WHERE id = $1', [erased.id, '2026-05-01T00:00:00Z']);
  const res = await create(w, {
    customer_id: erased.id,
    starts_at: '2026-06-05T12:00:00Z',
    ends_at: '2026-06-05T13:00:00Z',
  });
  assert.equal(res.status, 409);
  assert.equal(errorCode(res), 'CUSTOMER_ERASED');
  assert.equal(await count(w, "SELECT count(*) AS n FROM appointments WHERE starts_at = '2026-06-05T12:00:00Z'"), 0);
});

test('a unit or service of another store is 404 NOT_FOUND and nothing is booked', async () => {
  const other = await w.t.fx.store({ name: 'Other' });
  const otherUnit = await w.t.fx.unit(other.id);
  const otherService = await w.t.fx.service(other.id);
  const before = await count(w, 'SELECT count(*) AS n FROM appointments');
  const u = await create(w, {
    unit_id: otherUnit.id,
    starts_at: '2026-06-06T10:00:00Z',
    ends_at: '2026-06-06T11:00:00Z',
  });
  assert.equal(u.status, 404);
  assert.equal(errorCode(u), 'NOT_FOUND');
  const s = await create(w, {
    service_id: otherService.id,
    starts_at: '2026-06-06T10:00:00Z',
    ends_at: '2026-06-06T11:00:00Z',
  });
  assert.equal(s.status, 404);
  assert.equal(errorCode(s), 'NOT_FOUND');
  // The token's store wins over a store_id in the body.
  const viaBody = await create(w, {
    store_id: other.id,
    unit_id: otherUnit.id,
    starts_at: '2026-06-06T10:00:00Z',
    ends_at: '2026-06-06T11:00:00Z',
  });
  assert.equal(viaBody.status, 404);
  assert.equal(await count(w, 'SELECT count(*) AS n FROM appointments'), before);
});

test('an archived service or an inactive unit cannot be booked', async () => {
  const archived = await w.t.fx.service(w.storeId);
  await w.t.db.query('UPDATE services SET is_active = false WHERE id = $1', [archived.id]);
  const s = await create(w, {
    service_id: archived.id,
    starts_at: '2026-06-07T10:00:00Z',
    ends_at: '2026-06-07T11:00:00Z',
  });
  assert.equal(s.status, 409);
  assert.equal(errorCode(s), 'SERVICE_ARCHIVED');
  const inactive = await w.t.fx.unit(w.storeId, { display_name: 'Old chair', is_active: false });
  const u = await create(w, {
    unit_id: inactive.id,
    starts_at: '2026-06-07T10:00:00Z',
    ends_at: '2026-06-07T11:00:00Z',
  });
  assert.equal(u.status, 409);
  assert.equal(errorCode(u), 'UNIT_NOT_BOOKABLE');
});

test('with several faults the first in order answers: an unknown service, then an archived one, then the customer', async () => {
  const archived = await w.t.fx.service(w.storeId);
  await w.t.db.query('UPDATE services SET is_active = false WHERE id = $1', [archived.id]);
  const erased = await w.t.fx.customer({ name: null });
  await w.t.fx.membership(w.storeId, erased.id);
  await w.t.db.query('UPDATE customers SET erased_at = $2 WHERE id = $1', [erased.id, '2026-05-01T00:00:00Z']);
  const times = { starts_at: '2026-06-07T12:00:00Z', ends_at: '2026-06-07T13:00:00Z' };
  const unknownService = await create(w, {
    ...times,
    service_id: '00000000-0000-4000-8000-000000000002',
    customer_id: erased.id,
  });
  assert.equal(unknownService.status, 404);
  assert.match(unknownService.body.error.message, /Service/);
  const archivedService = await create(w, {
    ...times,
    service_id: archived.id,
    customer_id: '00000000-0000-4000-8000-000000000003',
  });
  assert.equal(archivedService.status, 409);
  assert.equal(errorCode(archivedService), 'SERVICE_ARCHIVED');
  const unknownCustomer = await create(w, { ...times, customer_id: '00000000-0000-4000-8000-000000000003' });
  assert.equal(unknownCustomer.status, 404);
  assert.match(unknownCustomer.body.error.message, /Customer/);
  assert.equal(await count(w, "SELECT count(*) AS n FROM appointments WHERE starts_at = '2026-06-07T12:00:00Z'"), 0);
});

test('times must make sense: an end not after its start, or a block that does not contain the appointment, is 400', async () => {
  const backwards = await create(w, { starts_at: '2026-06-08T11:00:00Z', ends_at: '2026-06-08T10:00:00Z' });
  assert.equal(backwards.status, 400);
  assert.equal(errorCode(backwards), 'INVALID_TIME_RANGE');
  const narrow = await create(w, {
    starts_at: '2026-06-08T10:00:00Z',
    ends_at: '2026-06-08T11:00:00Z',
    block_starts_at: '2026-06-08T10:15:00Z',
  });
  assert.equal(narrow.status, 400);
  assert.equal(errorCode(narrow), 'INVALID_TIME_RANGE');
  const unknownField = await create(w, {
    starts_at: '2026-06-08T10:00:00Z',
    ends_at: '2026-06-08T11:00:00Z',
    deposit_pence: 500,
  });
  assert.equal(unknownField.status, 400);
  assert.equal(errorCode(unknownField), 'VALIDATION_FAILED');
});

test('an overlapping booking on the same unit is 409 SLOT_TAKEN; back-to-back is fine', async () => {
  await booked(w, { starts_at: '2026-06-09T10:00:00Z', ends_at: '2026-06-09T11:00:00Z' });
  const clash = await create(w, { starts_at: '2026-06-09T10:30:00Z', ends_at: '2026-06-09T11:30:00Z' });
  assert.equal(clash.status, 409);
  assert.equal(errorCode(clash), 'SLOT_TAKEN');
  const next = await create(w, { starts_at: '2026-06-09T11:00:00Z', ends_at: '2026-06-09T12:00:00Z' });
  assert.equal(next.status, 200);
  const elsewhere = await w.t.fx.unit(w.storeId, { display_name: 'Chair 2' });
  const other = await create(w, {
    unit_id: elsewhere.id,
    starts_at: '2026-06-09T10:30:00Z',
    ends_at: '2026-06-09T11:30:00Z',
  });
  assert.equal(other.status, 200);
  assert.equal(await overlappingLiveBlocks(w), 0);
});

test('block_starts_at/block_ends_at widen what the unit is occupied for, not what the customer is told', async () => {
  const a = await create(w, {
    starts_at: '2026-06-10T10:00:00Z',
    ends_at: '2026-06-10T11:00:00Z',
    block_starts_at: '2026-06-10T09:45:00Z',
    block_ends_at: '2026-06-10T11:15:00Z',
  });
  assert.equal(a.body.appointment.starts_at, '2026-06-10T10:00:00.000Z');
  assert.equal(a.body.appointment.ends_at, '2026-06-10T11:00:00.000Z');
  const r = await row(w, a.body.appointment.id);
  assert.equal(r.block_starts_at, '2026-06-10T09:45:00.000Z');
  assert.equal(r.block_ends_at, '2026-06-10T11:15:00.000Z');
  const inBuffer = await create(w, { starts_at: '2026-06-10T11:00:00Z', ends_at: '2026-06-10T11:30:00Z' });
  assert.equal(inBuffer.status, 409);
  assert.equal(errorCode(inBuffer), 'SLOT_TAKEN');
});

test("a service's buffers widen the block when no explicit block is given", async () => {
  const service = await w.t.fx.service(w.storeId);
  await w.t.db.query('UPDATE services SET buffer_before_min = 10, buffer_after_min = 20 WHERE id = $1', [service.id]);
  const a = await create(w, {
    service_id: service.id,
    starts_at: '2026-06-11T10:00:00Z',
    ends_at: '2026-06-11T11:00:00Z',
  });
  const r = await row(w, a.body.appointment.id);
  assert.equal(r.block_starts_at, '2026-06-11T09:50:00.000Z');
  assert.equal(r.block_ends_at, '2026-06-11T11:20:00.000Z');
  assert.equal(a.body.appointment.ends_at, '2026-06-11T11:00:00.000Z');
});

test('an unexpired hold or time-off refuses a booking with UNIT_UNAVAILABLE unless override; an expired hold does not', async () => {
  await w.t.db.query(
    `INSERT INTO holds (store_id, unit_id, starts_at, ends_at, expires_at) VALUES ($1, $2, '2026-06-12T10:00:00Z', '2026-06-12T11:00:00Z', '2026-06-01T09:10:00Z'),
       ($1, $2, '2026-06-12T12:00:00Z', '2026-06-12T13:00:00Z', '2026-06-01T08:00:00Z')`,
    [w.storeId, w.unitId],
  );
  await w.t.db.query(
    `INSERT INTO time_off (store_id, unit_id, starts_at, ends_at, kind, reason) VALUES ($1, $2, '2026-06-12T14:00:00Z', '2026-06-12T15:00:00Z', 'block', 'Lunch')`,
    [w.storeId, w.unitId],
  );
  const held = await create(w, { starts_at: '2026-06-12T10:30:00Z', ends_at: '2026-06-12T10:45:00Z' });
  assert.equal(held.status, 409);
  assert.equal(errorCode(held), 'UNIT_UNAVAILABLE');
  const off = await create(w, { starts_at: '2026-06-12T14:30:00Z', ends_at: '2026-06-12T15:30:00Z' });
  assert.equal(errorCode(off), 'UNIT_UNAVAILABLE');
  const expired = await create(w, { starts_at: '2026-06-12T12:00:00Z', ends_at: '2026-06-12T13:00:00Z' });
  assert.equal(expired.status, 200);
  const forced = await create(w, {
    starts_at: '2026-06-12T14:30:00Z',
    ends_at: '2026-06-12T15:30:00Z',
    override: true,
  });
  assert.equal(forced.status, 200);
  assert.equal(forced.body.appointment.is_override, true);
});

test('an override books over a taken slot, is marked is_override, and blocks nobody', async () => {
  const first = await booked(w, { starts_at: '2026-06-13T10:00:00Z', ends_at: '2026-06-13T11:00:00Z' });
  const refused = await create(w, { starts_at: '2026-06-13T10:30:00Z', ends_at: '2026-06-13T12:00:00Z' });
  assert.equal(errorCode(refused), 'SLOT_TAKEN');
  const forced = await create(w, {
    starts_at: '2026-06-13T10:30:00Z',
    ends_at: '2026-06-13T12:00:00Z',
    override: true,
  });
  assert.equal(forced.status, 200);
  assert.equal(forced.body.appointment.is_override, true);
  assert.equal((await row(w, forced.body.appointment.id)).is_override, true);
  // 11:00-12:00 is covered only by the override, which blocks nobody.
  const after = await create(w, { starts_at: '2026-06-13T11:00:00Z', ends_at: '2026-06-13T12:00:00Z' });
  assert.equal(after.status, 200, JSON.stringify(after.body));
  assert.equal((await row(w, first)).status, 'confirmed');
  assert.equal(await overlappingLiveBlocks(w), 0);
});

test('cancelled and no-show appointments free their slot', async () => {
  const a = await booked(w, { starts_at: '2026-06-14T10:00:00Z', ends_at: '2026-06-14T11:00:00Z' });
  const b = await booked(w, { starts_at: '2026-06-14T12:00:00Z', ends_at: '2026-06-14T13:00:00Z' });
  await forceStatus(w, b, 'no_show');
  const cancelled = await post(w, 'cancel', { appointment_id: a });
  assert.equal(cancelled.status, 200);
  const intoCancelled = await create(w, { starts_at: '2026-06-14T10:00:00Z', ends_at: '2026-06-14T11:00:00Z' });
  assert.equal(intoCancelled.status, 200);
  const intoNoShow = await create(w, { starts_at: '2026-06-14T12:00:00Z', ends_at: '2026-06-14T13:00:00Z' });
  assert.equal(intoNoShow.status, 200);
  assert.equal((await row(w, a)).status, 'cancelled');
});

test('a retry with the same client_token returns the same appointment with reused: true and books nothing new', async () => {
  const first = await create(w, {
    client_token: 'ct-1',
    starts_at: '2026-06-15T10:00:00Z',
    ends_at: '2026-06-15T11:00:00Z',
  });
  assert.equal(first.status, 200);
  assert.equal(first.body.reused, false);
  const retry = await create(w, {
    client_token: 'ct-1',
    starts_at: '2026-06-15T10:00:00Z',
    ends_at: '2026-06-15T11:00:00Z',
  });
  assert.equal(retry.status, 200);
  assert.equal(retry.body.reused, true);
  assert.deepEqual(retry.body.appointment, first.body.appointment);
  assert.equal(await count(w, "SELECT count(*) AS n FROM appointments WHERE client_token = 'ct-1'"), 1);
  assert.equal(await auditCount(w, first.body.appointment.id, 'appointment.created'), 1);
});

test('an Idempotency-Key replay returns the same response with idempotent-replayed: true and one row', async () => {
  const body = { starts_at: '2026-06-16T10:00:00Z', ends_at: '2026-06-16T11:00:00Z' };
  const first = await create(w, body, { idempotencyKey: 'idem-create-1' });
  assert.equal(first.status, 200);
  assert.equal(first.headers['idempotent-replayed'], undefined);
  const again = await create(w, body, { idempotencyKey: 'idem-create-1' });
  assert.equal(again.status, 200);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.deepEqual(again.body, first.body);
  assert.equal(await count(w, "SELECT count(*) AS n FROM appointments WHERE starts_at = '2026-06-16T10:00:00Z'"), 1);
});
