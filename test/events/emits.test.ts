// Every change emits its event in the same transaction, with data = the resource as the API presents
// it after the change; a no-op repeat (noop, reused, already_settled, called:false, a replay)
// emits nothing. State afterwards: the events rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestApp } from '../support/app.ts';
import { call } from '../support/http.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const store = await t.fx.store({ timezone: 'Europe/London' });
const unit = await t.fx.unit(store.id);
const unit2 = await t.fx.unit(store.id);
const token = await t.fx.merchantToken(store.id);

interface EventRow {
  type: string;
  store_id: string;
  data: Record<string, any>;
}
let mark = 0;
/** The events written since the last call, in feed order. */
async function newEvents(storeId = store.id): Promise<EventRow[]> {
  const rows = (
    await t.db.query<EventRow & { seq: string }>(
      'SELECT seq::text AS seq, type, store_id, data FROM events WHERE seq > $1 ORDER BY txid, seq',
      [mark],
    )
  ).rows;
  if (rows.length) mark = Math.max(mark, ...rows.map((r) => Number(r.seq)));
  return rows.filter((r) => r.store_id === storeId);
}
const types = (rows: EventRow[]) => rows.map((r) => r.type);
const post = (path: string, body: Record<string, unknown>, idempotencyKey?: string) =>
  call(t.app, 'POST', path, { token, idempotencyKey, body: { store_id: store.id, ...body } });

async function booked(startsAt: string, endsAt: string, extra: Record<string, unknown> = {}) {
  const res = await post('/api/v1/bookings/appointments', {
    unit_id: unit.id,
    guest_email: 'g@example.com',
    starts_at: startsAt,
    ends_at: endsAt,
    ...extra,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await newEvents();
  return res.body.appointment;
}

test('reschedule emits appointment.rescheduled with the moved appointment and the previous unit and times', async () => {
  const a = await booked('2026-06-05T10:00:00Z', '2026-06-05T11:00:00Z');
  const res = await post('/api/v1/bookings/appointments/reschedule', {
    appointment_id: a.id,
    unit_id: unit2.id,
    starts_at: '2026-06-05T12:00:00Z',
    ends_at: '2026-06-05T13:00:00Z',
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const [e, ...rest] = await newEvents();
  assert.equal(rest.length, 0);
  assert.equal(e.type, 'appointment.rescheduled');
  assert.equal(e.data.id, a.id);
  assert.equal(e.data.unit_id, unit2.id);
  assert.equal(e.data.starts_at, '2026-06-05T12:00:00.000Z');
  assert.equal(e.data.local_starts_at, '2026-06-05T13:00:00');
  assert.deepEqual(e.data.previous, {
    unit_id: unit.id,
    starts_at: '2026-06-05T10:00:00.000Z',
    ends_at: '2026-06-05T11:00:00.000Z',
  });
});

test('check-in, complete, settle: one event each with the appointment after the change; repeats emit nothing', async () => {
  const a = await booked('2026-06-01T08:00:00Z', '2026-06-01T08:30:00Z', { price_pence: 2500 });
  const body = { appointment_id: a.id };
  assert.equal((await post('/api/v1/bookings/appointments/check-in', body)).body.noop, false);
  assert.equal((await post('/api/v1/bookings/appointments/check-in', body)).body.noop, true);
  let rows = await newEvents();
  assert.deepEqual(types(rows), ['appointment.checked_in']);
  assert.equal(rows[0].data.status, 'checked_in');
  assert.deepEqual(rows[0].data.previous, { status: 'confirmed' });

  const settled = await post('/api/v1/bookings/appointments/settle', { ...body, method: 'cash' });
  assert.equal(settled.body.outcome, 'settled');
  assert.equal(
    (await post('/api/v1/bookings/appointments/settle', { ...body, method: 'cash' })).body.outcome,
    'already_settled',
  );
  rows = await newEvents();
  assert.deepEqual(types(rows), ['appointment.settled']);
  assert.equal(rows[0].data.status, 'completed');
  assert.equal(rows[0].data.payment_status, 'paid');
  assert.equal(rows[0].data.balance_pence, 0);
  assert.equal(rows[0].data.settlement.amount_pence, 2500);
  assert.equal(rows[0].data.settlement.method, 'cash');
  assert.deepEqual(rows[0].data.previous, { status: 'checked_in', payment_status: 'none' });

  assert.equal((await post('/api/v1/bookings/appointments/complete', body)).body.noop, true);
  assert.deepEqual(await newEvents(), []);

  const b = await booked('2026-06-01T07:00:00Z', '2026-06-01T07:30:00Z');
  assert.equal((await post('/api/v1/bookings/appointments/complete', { appointment_id: b.id })).body.noop, false);
  rows = await newEvents();
  assert.deepEqual(types(rows), ['appointment.completed']);
  assert.equal(rows[0].data.status, 'completed');
});

test('no-show and cancel emit their events once; a repeat or a replayed key emits nothing', async () => {
  const a = await booked('2026-06-01T06:00:00Z', '2026-06-01T06:30:00Z');
  assert.equal((await post('/api/v1/bookings/appointments/no-show', { appointment_id: a.id })).body.noop, false);
  assert.equal((await post('/api/v1/bookings/appointments/no-show', { appointment_id: a.id })).body.noop, true);
  let rows = await newEvents();
  assert.deepEqual(types(rows), ['appointment.no_show']);
  assert.equal(rows[0].data.status, 'no_show');

  const b = await booked('2026-06-07T10:00:00Z', '2026-06-07T11:00:00Z');
  const first = await post(
    '/api/v1/bookings/appointments/cancel',
    { appointment_id: b.id, reason: 'private words' },
    'cancel-key-1',
  );
  const replay = await post(
    '/api/v1/bookings/appointments/cancel',
    { appointment_id: b.id, reason: 'private words' },
    'cancel-key-1',
  );
  const repeat = await post('/api/v1/bookings/appointments/cancel', { appointment_id: b.id });
  assert.equal(first.body.noop, false);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(repeat.body.noop, true);
  rows = await newEvents();
  assert.deepEqual(types(rows), ['appointment.cancelled']);
  assert.equal(rows[0].data.id, b.id);
  assert.equal(rows[0].data.status, 'cancelled');
  assert.equal(rows[0].data.cancelled_by, 'merchant');
  assert.ok(!JSON.stringify(rows[0].data).includes('private words'));
});

test('queue: joined, called, assigned (with the appointment booked for the seat), removed; repeats emit nothing', async () => {
  const joined = await post('/api/v1/bookings/queue/join', { guest_name: 'Walk In', client_token: 'q-1' });
  assert.equal(joined.status, 200, JSON.stringify(joined.body));
  assert.equal(
    (await post('/api/v1/bookings/queue/join', { guest_name: 'Walk In', client_token: 'q-1' })).body.reused,
    true,
  );
  let rows = await newEvents();
  assert.deepEqual(types(rows), ['queue.joined']);
  assert.deepEqual(rows[0].data, joined.body.entry);
  const entryId = joined.body.entry.entry_id;

  assert.equal((await post('/api/v1/bookings/queue/call', { entry_id: entryId })).body.called, true);
  assert.equal((await post('/api/v1/bookings/queue/call', { entry_id: entryId })).body.called, false);
  rows = await newEvents();
  assert.deepEqual(types(rows), ['queue.called']);
  assert.equal(rows[0].data.status, 'called');
  assert.equal(rows[0].data.called_at, '2026-06-01T09:00:00.000Z');

  const seated = await post('/api/v1/bookings/queue/assign', { entry_id: entryId, unit_id: unit2.id });
  assert.equal(seated.body.assigned, true, JSON.stringify(seated.body));
  assert.equal(
    (await post('/api/v1/bookings/queue/assign', { entry_id: entryId, unit_id: unit2.id })).body.assigned,
    false,
  );
  rows = await newEvents();
  assert.deepEqual(types(rows), ['appointment.created', 'queue.assigned']);
  assert.equal(rows[0].data.id, seated.body.appointment_id);
  assert.equal(rows[0].data.source, 'walk_in');
  assert.equal(rows[1].data.status, 'assigned');
  assert.equal(rows[1].data.appointment_id, seated.body.appointment_id);
  assert.equal(rows[1].data.unit_id, unit2.id);

  const other = (await post('/api/v1/bookings/queue/join', { guest_name: 'Leaver' })).body.entry.entry_id;
  await newEvents();
  assert.equal((await post('/api/v1/bookings/queue/remove', { entry_id: other, status: 'left' })).body.noop, false);
  assert.equal((await post('/api/v1/bookings/queue/remove', { entry_id: other, status: 'left' })).body.noop, true);
  rows = await newEvents();
  assert.deepEqual(types(rows), ['queue.removed']);
  assert.equal(rows[0].data.reason, 'left');
  assert.equal(rows[0].data.status, 'left');
});

test('customer edit emits customer.updated with changed_fields and never the private note text; an unchanged edit emits nothing', async () => {
  const c = await t.fx.customer({ name: 'Ann', email: 'ann@example.com' });
  await t.fx.membership(store.id, c.id);
  const edit = (body: Record<string, unknown>) =>
    call(t.app, 'PATCH', `/api/v1/customers/${c.id}`, { token, body: { store_id: store.id, ...body } });
  assert.equal((await edit({ name: 'Ann B', merchant_note: 'owes us a secret' })).status, 200);
  assert.equal((await edit({ name: 'Ann B' })).status, 200);
  const rows = await newEvents();
  assert.deepEqual(types(rows), ['customer.updated']);
  assert.deepEqual(rows[0].data.changed_fields, ['name', 'merchant_note']);
  assert.equal(rows[0].data.name, 'Ann B');
  assert.equal(rows[0].data.id, c.id);
  assert.ok(!JSON.stringify(rows[0].data).includes('secret'));
});

test('block/unblock/archive/restore emit their types; bulk block emits one per customer; repeats emit nothing', async () => {
  const a = await t.fx.customer({ name: 'A' });
  const b = await t.fx.customer({ name: 'B' });
  await t.fx.membership(store.id, a.id);
  await t.fx.membership(store.id, b.id);
  const one = (body: Record<string, unknown>) =>
    call(t.app, 'PATCH', `/api/v1/customers/${a.id}/block`, { token, body: { store_id: store.id, ...body } });
  const bulk = (body: Record<string, unknown>) =>
    call(t.app, 'PATCH', '/api/v1/customers/block', {
      token,
      body: { store_id: store.id, customer_ids: [a.id, b.id], ...body },
    });

  assert.equal((await one({ blocked: true, block_reason: 'rude note' })).status, 200);
  assert.equal((await one({ blocked: true })).status, 200);
  let rows = await newEvents();
  assert.deepEqual(types(rows), ['customer.blocked']);
  assert.equal(rows[0].data.id, a.id);
  assert.equal(rows[0].data.blocked, true);
  assert.ok(!('block_reason' in rows[0].data));
  assert.ok(!JSON.stringify(rows[0].data).includes('rude'));

  assert.equal((await bulk({ blocked: true })).status, 200);
  rows = await newEvents();
  assert.deepEqual(
    rows.map((r) => [r.type, r.data.id]),
    [['customer.blocked', b.id]],
  );

  assert.equal((await bulk({ blocked: false })).status, 200);
  rows = await newEvents();
  assert.deepEqual(
    rows.map((r) => [r.type, r.data.id]),
    [
      ['customer.unblocked', a.id],
      ['customer.unblocked', b.id],
    ],
  );

  assert.equal((await one({ archived: true })).status, 200);
  assert.equal((await one({ archived: true })).status, 200);
  assert.equal((await one({ archived: false })).status, 200);
  assert.deepEqual(types(await newEvents()), ['customer.archived', 'customer.restored']);

  assert.equal((await one({ blocked_channels: ['sms'] })).status, 200);
  assert.equal((await one({ blocked_channels: ['sms'] })).status, 200);
  rows = await newEvents();
  assert.deepEqual(types(rows), ['customer.updated']);
  assert.deepEqual(rows[0].data.changed_fields, ['blocked_channels']);
});

test('services and service periods: created, updated (only when something changed), deleted', async () => {
  const created = await post('/api/v1/bookings/services', {
    name: 'Cut',
    duration_min: 30,
    price_pence: 1500,
    client_token: 'svc-1',
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.equal(
    (
      await post('/api/v1/bookings/services', {
        name: 'Cut',
        duration_min: 30,
        price_pence: 1500,
        client_token: 'svc-1',
      })
    ).status,
    200,
  );
  let rows = await newEvents();
  assert.deepEqual(types(rows), ['service.created']);
  assert.deepEqual(rows[0].data, created.body.service);

  const id = created.body.service.id;
  const patch = (body: Record<string, unknown>) =>
    call(t.app, 'PATCH', `/api/v1/bookings/services/${id}`, { token, body: { store_id: store.id, ...body } });
  const updated = await patch({ price_pence: 1800 });
  assert.equal(updated.status, 200);
  assert.equal((await patch({ price_pence: 1800 })).status, 200);
  rows = await newEvents();
  assert.deepEqual(types(rows), ['service.updated']);
  assert.deepEqual(rows[0].data, { ...updated.body.service, changed_fields: ['price_pence'] });

  const period = await post('/api/v1/bookings/service-periods', { name: 'Lunch' });
  assert.equal(period.status, 200, JSON.stringify(period.body));
  const pid = period.body.period.id;
  const ppatch = (body: Record<string, unknown>) =>
    call(t.app, 'PATCH', `/api/v1/bookings/service-periods/${pid}`, { token, body: { store_id: store.id, ...body } });
  assert.equal((await ppatch({ name: 'Lunchtime' })).status, 200);
  assert.equal((await ppatch({ name: 'Lunchtime' })).status, 200);
  const del = await call(t.app, 'DELETE', `/api/v1/bookings/service-periods/${pid}`, {
    token,
    query: { store_id: store.id },
  });
  assert.equal(del.body.removed, true);
  const again = await call(t.app, 'DELETE', `/api/v1/bookings/service-periods/${pid}`, {
    token,
    query: { store_id: store.id },
  });
  assert.equal(again.body.removed, false);
  rows = await newEvents();
  assert.deepEqual(types(rows), ['service_period.created', 'service_period.updated', 'service_period.deleted']);
  assert.deepEqual(rows[0].data, period.body.period);
  assert.equal(rows[1].data.name, 'Lunchtime');
  assert.deepEqual(rows[1].data.changed_fields, ['name']);
  assert.deepEqual(rows[1].data.previous, { name: 'Lunch' });
  assert.equal(rows[2].data.id, pid);
});

test('notification preferences: the customer’s change is an event of the store it names; an unchanged save emits nothing', async () => {
  const c = await t.fx.customer({ name: 'P' });
  await t.fx.membership(store.id, c.id);
  const ctoken = await t.fx.customerToken(c.id);
  const save = (body: Record<string, unknown>) =>
    call(t.app, 'POST', '/api/v1/notifications/preferences', { token: ctoken, body: { storeId: store.id, ...body } });
  assert.equal((await save({ marketingEnabled: false })).status, 200); // the default: nothing changes
  assert.equal((await save({ marketingEnabled: true })).status, 200);
  assert.equal((await save({ marketingEnabled: true })).status, 200);
  const rows = await newEvents();
  assert.deepEqual(types(rows), ['notification_preferences.updated']);
  assert.equal(rows[0].data.customer_id, c.id);
  assert.equal(rows[0].data.store_id, store.id);
  assert.equal(rows[0].data.marketingEnabled, true);
  assert.deepEqual(rows[0].data.changed_fields, ['marketingEnabled']);
});

test('an operator erasure tells every store that knows the customer, once', async () => {
  const other = await t.fx.store();
  const c = await t.fx.customer({ name: 'Gone', email: 'gone@example.com' });
  await t.fx.membership(store.id, c.id);
  await t.fx.membership(other.id, c.id);
  const erase = () => call(t.app, 'POST', `/admin/v1/customers/${c.id}/erase`, { token: ADMIN_TOKEN });
  assert.equal((await erase()).body.erased, true);
  assert.equal((await erase()).body.erased, false);
  const all = (await t.db.query<EventRow>("SELECT type, store_id, data FROM events WHERE data->>'id' = $1", [c.id]))
    .rows;
  assert.deepEqual(all.map((r) => r.store_id).sort(), [store.id, other.id].sort());
  for (const r of all) {
    assert.equal(r.type, 'customer.updated');
    assert.deepEqual(r.data.changed_fields, ['name', 'email', 'erased_at']);
    assert.equal(r.data.name, null);
  }
  await newEvents();
});
