// "A price or duration change affects future bookings only: booked appointments keep their snapshot."
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });

test('a service price or duration change after a booking leaves the appointment price and times unchanged; new bookings use the new price', async () => {
  const store = await t.fx.store();
  const unit = await t.fx.unit(store.id);
  const token = await t.fx.merchantToken(store.id);
  const service = (
    await call(t.app, 'POST', '/api/v1/bookings/services', {
      token,
      body: { store_id: store.id, name: 'Cut', duration_min: 45, price_pence: 3000 },
    })
  ).body.service;

  const book = (startsAt: string, endsAt: string) =>
    call(t.app, 'POST', '/api/v1/bookings/appointments', {
      token,
      body: {
        store_id: store.id,
        unit_id: unit.id,
        service_id: service.id,
        starts_at: startsAt,
        ends_at: endsAt,
        guest_email: 'guest@example.com',
      },
    });
  const booked = await book('2026-06-02T10:00:00Z', '2026-06-02T10:45:00Z');
  assert.equal(booked.status, 200, JSON.stringify(booked.body));
  assert.equal(booked.body.appointment.price_pence, 3000, 'the price is snapshotted from the service');
  const id = booked.body.appointment.id;
  const before = (
    await t.db.query('SELECT price_pence, starts_at, ends_at, service_id FROM appointments WHERE id = $1', [id])
  ).rows[0];

  const changed = await call(t.app, 'PATCH', `/api/v1/bookings/services/${service.id}`, {
    token,
    body: { store_id: store.id, price_pence: 5000, duration_min: 90 },
  });
  assert.equal(changed.status, 200);
  assert.equal(changed.body.service.price_pence, 5000);
  const archived = await call(t.app, 'PATCH', `/api/v1/bookings/services/${service.id}`, {
    token,
    body: { store_id: store.id, is_active: false },
  });
  assert.equal(archived.status, 200);

  const after = (
    await t.db.query('SELECT price_pence, starts_at, ends_at, service_id FROM appointments WHERE id = $1', [id])
  ).rows[0];
  assert.deepEqual(after, before);
  assert.equal(after.price_pence, 3000);
  assert.equal(after.service_id, service.id, 'archiving the service does not detach or delete its bookings');

  await call(t.app, 'PATCH', `/api/v1/bookings/services/${service.id}`, {
    token,
    body: { store_id: store.id, is_active: true },
  });
  const later = await book('2026-06-03T10:00:00Z', '2026-06-03T11:30:00Z');
  assert.equal(later.status, 200, JSON.stringify(later.body));
  assert.equal(later.body.appointment.price_pence, 5000, 'a booking made after the change takes the new price');
});
