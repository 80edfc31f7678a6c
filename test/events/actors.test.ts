// Events carry who made the change (issue 43 "Who did what"): a staff member's session names the
// member, a store API key the key, a bearer merchant token its subject, a booking page customer only
// the type. The one-appointment read answers booked_by beside the appointment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../support/http.ts';
import { as, member, ownerOf, startStaffApp } from '../staff/support.ts';
import { BOOK, pageHold, pageShop, signIn } from '../booking-page/support.ts';
import { feedSettled } from './horizon.ts';
import { emit } from '../../src/events/outbox.ts';

const t = await startStaffApp();
const store = await t.fx.store();
const unit = await t.fx.unit(store.id);
const owner = await ownerOf(t, store.id);
const sam = await member(t, owner.cookie, { email: 'sam@shop.test', role: 'front_desk', name: 'Sam' });

let hour = 8;
function slot() {
  hour++;
  return {
    store_id: store.id,
    unit_id: unit.id,
    guest_email: 'guest@example.com',
    starts_at: `2026-07-01T${String(hour).padStart(2, '0')}:00:00Z`,
    ends_at: `2026-07-01T${String(hour).padStart(2, '0')}:30:00Z`,
  };
}

async function createdEvent(appointmentId: string) {
  await feedSettled(t.db);
  const res = await call(
    t.app,
    'GET',
    '/api/v1/events',
    as(owner.cookie, { query: { store_id: store.id, types: 'appointment.created' } }),
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const event = res.body.events.find((e: any) => e.data.id === appointmentId);
  assert.ok(event, 'the create has its event');
  return event;
}

async function bookedBy(appointmentId: string) {
  const res = await call(t.app, 'GET', `/api/v1/bookings/appointments/${appointmentId}`, as(owner.cookie));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.appointment.id, appointmentId);
  assert.ok(!('booked_by' in res.body.appointment), "the appointment's own fields are the spec's");
  return res.body.booked_by;
}

test('a create through a staff session: the event and the appointment name the member, no email', async () => {
  const res = await call(t.app, 'POST', '/api/v1/bookings/appointments', as(sam.cookie, { body: slot() }));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const event = await createdEvent(res.body.appointment.id);
  assert.deepEqual(event.actor, { type: 'staff', id: sam.id, name: 'Sam' });
  assert.ok(!JSON.stringify(event.actor).includes('@'));
  const stored = await t.db.query('SELECT actor FROM events WHERE id = $1', [event.id]);
  assert.deepEqual(stored.rows[0].actor, { type: 'staff', id: sam.id, name: 'Sam' });
  assert.deepEqual(await bookedBy(res.body.appointment.id), { type: 'staff', name: 'Sam' });
});

test('a create through an API key names the key; through a merchant token, the token', async () => {
  const made = await call(
    t.app,
    'POST',
    '/api/v1/api-keys',
    as(owner.cookie, { body: { name: 'Website', scopes: ['merchant:read', 'merchant:write'] } }),
  );
  assert.equal(made.status, 200);
  const byKey = await call(t.app, 'POST', '/api/v1/bookings/appointments', { token: made.body.key, body: slot() });
  assert.equal(byKey.status, 200, JSON.stringify(byKey.body));
  assert.deepEqual((await createdEvent(byKey.body.appointment.id)).actor, {
    type: 'api_key',
    id: made.body.api_key.id,
    name: 'API key Website',
  });
  assert.deepEqual(await bookedBy(byKey.body.appointment.id), { type: 'api_key', name: 'API key Website' });

  const jwt = await t.fx.merchantToken(store.id);
  const byToken = await call(t.app, 'POST', '/api/v1/bookings/appointments', { token: jwt, body: slot() });
  assert.equal(byToken.status, 200, JSON.stringify(byToken.body));
  assert.equal((await createdEvent(byToken.body.appointment.id)).actor.type, 'merchant_token');
  assert.equal((await bookedBy(byToken.body.appointment.id)).type, 'merchant_token');
});

test("a change in an ordinary transaction carries the actor too; a job's reads system; an event from before reads null", async () => {
  const res = await call(
    t.app,
    'POST',
    '/api/v1/bookings/services',
    as(owner.cookie, { body: { store_id: store.id, name: 'Cut', duration_min: 45, price_pence: 3000 } }),
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const rows = await t.db.query("SELECT type, actor FROM events WHERE data->>'id' = $1", [res.body.service.id]);
  assert.deepEqual(rows.rows, [
    { type: 'service.created', actor: { type: 'staff', id: owner.id, name: 'Olive Owner' } },
  ]);

  await t.db.transaction((tx) =>
    emit(tx, { storeId: store.id, type: 'customer.updated', data: { id: 'job-probe' } }, t.clock.now()),
  );
  const job = await t.db.query("SELECT actor FROM events WHERE data->>'id' = 'job-probe'");
  assert.deepEqual(job.rows, [{ actor: { type: 'system', id: null, name: null } }]);

  const a = await call(t.app, 'POST', '/api/v1/bookings/appointments', as(sam.cookie, { body: slot() }));
  await t.db.query("UPDATE events SET actor = NULL WHERE data->>'id' = $1", [a.body.appointment.id]);
  assert.equal((await createdEvent(a.body.appointment.id)).actor, null);
});

test('a booking page hold confirmed by the customer names the customer type, with no name', async () => {
  const w = await pageShop();
  const held = await pageHold(w, '2026-06-02T10:00:00.000Z');
  assert.equal(held.status, 200, JSON.stringify(held.body));
  const me = await signIn(w, 'new.guest@example.com', { name: 'New Guest', phone: '07812 345678' });
  const res = await call(w.t.app, 'POST', `${BOOK}/holds/${held.body.hold.id}/confirm`, {
    token: me.token,
    headers: { 'x-page-session': held.body.page_session },
    body: {},
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.appointment.id;
  const events = await w.t.db.query(
    "SELECT type, actor FROM events WHERE type = 'appointment.created' AND data->>'id' = $1",
    [id],
  );
  assert.deepEqual(events.rows, [
    { type: 'appointment.created', actor: { type: 'customer', id: me.customerId, name: null } },
  ]);
  const read = await call(w.t.app, 'GET', `/api/v1/bookings/appointments/${id}`, {
    token: await w.t.fx.merchantToken(w.storeId),
  });
  assert.equal(read.status, 200, JSON.stringify(read.body));
  assert.deepEqual(read.body.booked_by, { type: 'customer', name: null });
});
