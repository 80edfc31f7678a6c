// Time-off entries and unit deactivation race bookings on the same unit. Both take the booking
// authority's unit row lock, so exactly one of each pair wins. Races need the server engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const store = await t.fx.store();
const token = await t.fx.merchantToken(store.id);

/** A merchant's create over HTTP: 'ok', or the error code it was refused with. */
const bookSlot = async (unitId: string, startsAt: string, endsAt: string) => {
  const res = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token,
    body: {
      store_id: store.id,
      unit_id: unitId,
      starts_at: startsAt,
      ends_at: endsAt,
      guest_name: 'Racer',
      guest_email: 'racer@example.com',
    },
  });
  if (res.status !== 200) throw Object.assign(new Error(`booking refused ${res.status}`), { code: errorCode(res) });
  return res.body;
};

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (err) => err?.code ?? String(err),
  );

test('a booking and time-off racing for one slot: exactly one of them lands', async () => {
  for (let i = 0; i < 15; i++) {
    const unit = await t.fx.unit(store.id, { display_name: `Race ${i}` });
    const [booking, timeOff] = await Promise.all([
      outcome(bookSlot(unit.id, '2026-06-02T10:00:00Z', '2026-06-02T11:00:00Z')),
      call(t.app, 'POST', '/api/v1/bookings/time-off', {
        token,
        body: {
          store_id: store.id,
          unit_id: unit.id,
          starts_at: '2026-06-02T10:30:00Z',
          ends_at: '2026-06-02T12:00:00Z',
          kind: 'block',
        },
      }),
    ]);
    const counts = (
      await t.db.query<{ a: number; o: number }>(
        `SELECT (SELECT count(*)::int FROM appointments WHERE unit_id = $1) AS a, (SELECT count(*)::int FROM time_off WHERE unit_id = $1) AS o`,
        [unit.id],
      )
    ).rows[0];
    if (booking === 'ok') {
      assert.equal(timeOff.status, 409, `round ${i}`);
      assert.equal(errorCode(timeOff), 'SLOT_TAKEN');
      assert.deepEqual(counts, { a: 1, o: 0 });
    } else {
      assert.equal(booking, 'UNIT_UNAVAILABLE', `round ${i}`);
      assert.equal(timeOff.status, 200);
      assert.deepEqual(counts, { a: 0, o: 1 });
    }
  }
});

test('a booking and a deactivation racing on one unit: never an upcoming booking on an inactive unit', async () => {
  for (let i = 0; i < 15; i++) {
    const unit = await t.fx.unit(store.id, { display_name: `Closing ${i}` });
    const [booking, patch] = await Promise.all([
      outcome(bookSlot(unit.id, '2026-06-03T10:00:00Z', '2026-06-03T11:00:00Z')),
      call(t.app, 'PATCH', `/api/v1/bookings/units/${unit.id}`, {
        token,
        body: { store_id: store.id, is_active: false },
      }),
    ]);
    const row = (
      await t.db.query<{ is_active: boolean; a: number }>(
        `SELECT is_active, (SELECT count(*)::int FROM appointments WHERE unit_id = $1) AS a FROM units WHERE id = $1`,
        [unit.id],
      )
    ).rows[0];
    if (booking === 'ok') {
      assert.equal(patch.status, 409, `round ${i}`);
      assert.equal(errorCode(patch), 'UNIT_HAS_BOOKINGS');
      assert.deepEqual(row, { is_active: true, a: 1 });
    } else {
      assert.equal(booking, 'UNIT_NOT_BOOKABLE', `round ${i}`);
      assert.equal(patch.status, 200);
      assert.deepEqual(row, { is_active: false, a: 0 });
    }
  }
});
