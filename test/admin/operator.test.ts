import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestApp } from '../support/app.ts';
import { call, errorCode } from '../support/http.ts';
import { probeRoutes } from '../platform/probe.ts';

const t = await startTestApp({ extend: probeRoutes });
const admin = (method: string, url: string, body?: unknown) => call(t.app, method, url, { token: ADMIN_TOKEN, body });

test('a client provisions a store and a unit, mints a merchant token and is let in', async () => {
  const created = await admin('POST', '/admin/v1/stores', {
    name: 'Fade Barbers',
    timezone: 'Europe/London',
    currency: 'GBP',
    walkin_mode: 'mixed',
    called_hold_minutes: 5,
    cancellation_window_min: 120,
  });
  assert.equal(created.status, 200);
  const store = created.body.store;
  assert.equal(store.timezone, 'Europe/London');
  assert.equal(store.cancellation_window_min, 120);
  assert.equal(store.last_seating_offset_min, null);

  const unit = await admin('POST', `/admin/v1/stores/${store.id}/units`, {
    display_name: 'Chair 1',
    kind: 'chair',
    colour: '#aa33ff',
  });
  assert.equal(unit.status, 200);
  assert.deepEqual(
    { ...unit.body.unit, id: undefined },
    {
      id: undefined,
      display_name: 'Chair 1',
      kind: 'chair',
      unit_type: null,
      user_id: null,
      colour: '#aa33ff',
      photo_url: null,
      sort: 0,
      bookable: true,
      online_bookable: true,
      is_active: true,
    },
  );
  const row = await t.db.query('SELECT store_id FROM units WHERE id = $1', [unit.body.unit.id]);
  assert.equal(row.rows[0].store_id, store.id);

  // ttl_s is the token's lifetime: exp is iat + 600, and expires_at is exp. Tokens are minted on the
  // system clock (they are checked against it), so the wall time brackets the mint.
  const mintedFrom = Math.floor(Date.now() / 1000);
  const minted = await admin('POST', '/admin/v1/tokens', {
    kind: 'merchant',
    store_id: store.id,
    user_id: 'u-1',
    staff_name: 'Sam',
    entitlements: ['can_use_bookings'],
    ttl_s: 600,
  });
  const mintedTo = Math.ceil(Date.now() / 1000);
  assert.equal(minted.status, 200);
  const claims = JSON.parse(Buffer.from(minted.body.token.split('.')[1], 'base64url').toString());
  assert.equal(claims.exp - claims.iat, 600);
  assert.ok(claims.iat >= mintedFrom && claims.iat <= mintedTo, `iat ${claims.iat} is the time of the mint`);
  assert.equal(minted.body.expires_at, new Date(claims.exp * 1000).toISOString());
  const ok = await call(t.app, 'GET', '/probe/merchant', { token: minted.body.token });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.store_id, store.id);
  assert.equal((await call(t.app, 'GET', '/probe/merchant')).status, 401);

  const customer = await admin('POST', '/admin/v1/customers', { name: 'Ann' });
  const customerToken = await admin('POST', '/admin/v1/tokens', {
    kind: 'customer',
    customer_id: customer.body.customer.id,
  });
  const customerClaims = JSON.parse(Buffer.from(customerToken.body.token.split('.')[1], 'base64url').toString());
  assert.equal(customerClaims.exp - customerClaims.iat, 3600, 'without ttl_s a token lives an hour');
  assert.equal(
    errorCode(await call(t.app, 'GET', '/probe/merchant', { token: customerToken.body.token })),
    'WRONG_TOKEN_KIND',
  );
});

test('store fields are validated: an unknown time zone and a bad currency are refused', async () => {
  const tz = await admin('POST', '/admin/v1/stores', { name: 'S', timezone: 'Mars/Olympus', currency: 'GBP' });
  assert.equal(tz.status, 400);
  assert.match(tz.body.error.message, /timezone/);
  const cur = await admin('POST', '/admin/v1/stores', { name: 'S', timezone: 'Europe/London', currency: 'pounds' });
  assert.equal(cur.status, 400);
  assert.match(cur.body.error.message, /currency/);
  assert.equal((await t.db.query("SELECT count(*)::int AS n FROM stores WHERE name = 'S'")).rows[0].n, 0);
});

test('a store is updated partially; an unknown store answers 404', async () => {
  const store = await t.fx.store();
  const res = await admin('PATCH', `/admin/v1/stores/${store.id}`, {
    walkin_mode: 'walk_ins_only',
    last_seating_offset_min: 30,
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.store.walkin_mode, 'walk_ins_only');
  assert.equal(res.body.store.last_seating_offset_min, 30);
  assert.equal(res.body.store.name, store.name);
  const missing = await admin('PATCH', '/admin/v1/stores/00000000-0000-4000-8000-000000000000', { name: 'X' });
  assert.equal(missing.status, 404);
  assert.equal(errorCode(missing), 'NOT_FOUND');
  assert.equal((await admin('PATCH', `/admin/v1/stores/${store.id}`, {})).status, 400);
});

test('customers are created with a normalised phone and email; duplicates are refused', async () => {
  const res = await admin('POST', '/admin/v1/customers', {
    name: ' Bea ',
    email: ' Bea@Example.COM ',
    phone: '07812 345678',
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.customer.name, 'Bea');
  assert.equal(res.body.customer.email, 'bea@example.com');
  assert.equal(res.body.customer.phone, '+447812345678');
  const dupPhone = await admin('POST', '/admin/v1/customers', { phone: '+44 7812 345678' });
  assert.equal(dupPhone.status, 409);
  assert.equal(errorCode(dupPhone), 'PHONE_IN_USE');
  const dupEmail = await admin('POST', '/admin/v1/customers', { email: 'bea@example.com' });
  assert.equal(errorCode(dupEmail), 'EMAIL_IN_USE');
  const landline = await admin('POST', '/admin/v1/customers', { phone: '020 7946 0000' });
  assert.equal(landline.status, 400);
  assert.equal(errorCode(landline), 'INVALID_PHONE');
});

test('a membership makes the store relationship once', async () => {
  const store = await t.fx.store();
  const customer = await t.fx.customer();
  const first = await admin('POST', `/admin/v1/stores/${store.id}/memberships`, { customer_id: customer.id });
  assert.equal(first.status, 200);
  assert.equal(first.body.membership.created, true);
  assert.equal(first.body.membership.is_member, true);
  const again = await admin('POST', `/admin/v1/stores/${store.id}/memberships`, { customer_id: customer.id });
  assert.equal(again.body.membership.created, false);
  assert.equal(again.body.membership.member_since, first.body.membership.member_since);
  const rows = await t.db.query(
    'SELECT count(*)::int AS n FROM store_customers WHERE store_id = $1 AND customer_id = $2',
    [store.id, customer.id],
  );
  assert.equal(rows.rows[0].n, 1);
  const unknown = await admin('POST', `/admin/v1/stores/${store.id}/memberships`, {
    customer_id: '00000000-0000-4000-8000-000000000000',
  });
  assert.equal(unknown.status, 404);
});

test('erasure removes identity and keeps financial rows', async () => {
  const store = await t.fx.store();
  const unit = await t.fx.unit(store.id);
  const customer = await t.fx.customer({ name: 'Cara', email: 'cara@example.com', phone: '+447400123456' });
  await t.fx.membership(store.id, customer.id);
  await t.db.query("UPDATE store_customers SET merchant_note = 'likes tea' WHERE customer_id = $1", [customer.id]);
  const appt = await t.db.query(
    `INSERT INTO appointments (store_id, unit_id, customer_id, guest_name, guest_email, starts_at, ends_at, block, status, currency, price_pence)
     VALUES ($1, $2, $3, 'Cara', 'cara@example.com', '2026-05-01T10:00:00Z', '2026-05-01T11:00:00Z',
             tstzrange('2026-05-01T10:00:00Z', '2026-05-01T11:00:00Z'), 'completed', 'GBP', 2500) RETURNING id`,
    [store.id, unit.id, customer.id],
  );
  const earlierGuest = await t.db.query(
    `INSERT INTO appointments (store_id, unit_id, guest_name, guest_email, starts_at, ends_at, block, status, currency)
     VALUES ($1, $2, 'Cara G', 'Cara@Example.com', '2026-04-01T10:00:00Z', '2026-04-01T11:00:00Z',
             tstzrange('2026-04-01T10:00:00Z', '2026-04-01T11:00:00Z'), 'completed', 'GBP') RETURNING id`,
    [store.id, unit.id],
  );
  const res = await admin('POST', `/admin/v1/customers/${customer.id}/erase`);
  assert.equal(res.status, 200);
  const guest = (
    await t.db.query('SELECT guest_name, guest_email FROM appointments WHERE id = $1', [earlierGuest.rows[0].id])
  ).rows[0];
  assert.deepEqual(guest, { guest_name: null, guest_email: null });
  assert.equal(res.body.erased, true);
  const c = (await t.db.query('SELECT name, email, phone, erased_at FROM customers WHERE id = $1', [customer.id]))
    .rows[0];
  assert.deepEqual({ name: c.name, email: c.email, phone: c.phone }, { name: null, email: null, phone: null });
  assert.ok(c.erased_at);
  const a = (
    await t.db.query('SELECT guest_name, guest_email, price_pence, status FROM appointments WHERE id = $1', [
      appt.rows[0].id,
    ])
  ).rows[0];
  assert.deepEqual(a, { guest_name: null, guest_email: null, price_pence: 2500, status: 'completed' });
  const note = (await t.db.query('SELECT merchant_note FROM store_customers WHERE customer_id = $1', [customer.id]))
    .rows[0];
  assert.equal(note.merchant_note, null);
  const again = await admin('POST', `/admin/v1/customers/${customer.id}/erase`);
  assert.equal(again.body.erased, false);
  const token = await admin('POST', '/admin/v1/tokens', { kind: 'customer', customer_id: customer.id });
  assert.equal(token.status, 404);
});

test('a hold occupies a free slot and is refused over a booking (SLOT_TAKEN) or another hold (UNIT_UNAVAILABLE)', async () => {
  const store = await t.fx.store();
  const unit = await t.fx.unit(store.id);
  const merchant = await t.fx.merchantToken(store.id);
  const booked = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token: merchant,
    body: {
      store_id: store.id,
      unit_id: unit.id,
      guest_email: 'booked@example.com',
      starts_at: '2026-06-02T12:00:00Z',
      ends_at: '2026-06-02T12:30:00Z',
    },
  });
  assert.equal(booked.status, 200, JSON.stringify(booked.body));
  const hold = {
    unit_id: unit.id,
    starts_at: '2026-06-02T10:00:00Z',
    ends_at: '2026-06-02T10:30:00Z',
    expires_at: '2026-06-01T09:10:00Z',
  };
  const res = await admin('POST', `/admin/v1/stores/${store.id}/holds`, hold);
  assert.equal(res.status, 200);
  assert.equal(res.body.hold.expires_at, '2026-06-01T09:10:00.000Z');
  const overBooking = await admin('POST', `/admin/v1/stores/${store.id}/holds`, {
    ...hold,
    starts_at: '2026-06-02T12:15:00Z',
    ends_at: '2026-06-02T12:45:00Z',
  });
  assert.equal(overBooking.status, 409);
  assert.equal(errorCode(overBooking), 'SLOT_TAKEN');
  const clash = await admin('POST', `/admin/v1/stores/${store.id}/holds`, {
    ...hold,
    starts_at: '2026-06-02T10:15:00Z',
    ends_at: '2026-06-02T10:45:00Z',
  });
  assert.equal(clash.status, 409);
  assert.equal(errorCode(clash), 'UNIT_UNAVAILABLE');
  t.clock.advance(11 * 60 * 1000); // the first hold has expired
  const after = await admin('POST', `/admin/v1/stores/${store.id}/holds`, { ...hold, expires_at: null });
  assert.equal(after.status, 200);
  const otherStore = await t.fx.store();
  const foreign = await admin('POST', `/admin/v1/stores/${otherStore.id}/holds`, hold);
  assert.equal(foreign.status, 404);
  // The refusals left nothing: the two accepted holds are the store's only holds, the booking is unchanged.
  const holds = (
    await t.db.query<{ id: string }>('SELECT id FROM holds WHERE store_id = ANY($1::uuid[]) ORDER BY created_at, id', [
      [store.id, otherStore.id],
    ])
  ).rows
    .map((r) => r.id)
    .sort();
  assert.deepEqual(holds, [res.body.hold.id, after.body.hold.id].sort());
  const appts = (
    await t.db.query<{ id: string; starts_at: string }>('SELECT id, starts_at FROM appointments WHERE store_id = $1', [
      store.id,
    ])
  ).rows;
  assert.deepEqual(appts, [{ id: booked.body.appointment.id, starts_at: '2026-06-02T12:00:00.000Z' }]);
});

test('tokens for an unknown store or customer are refused', async () => {
  const res = await admin('POST', '/admin/v1/tokens', {
    kind: 'merchant',
    store_id: '00000000-0000-4000-8000-000000000000',
  });
  assert.equal(res.status, 404);
  const bad = await admin('POST', '/admin/v1/tokens', {
    kind: 'merchant',
    store_id: '00000000-0000-4000-8000-000000000000',
    scopes: ['root'],
  });
  assert.equal(bad.status, 400);
});
