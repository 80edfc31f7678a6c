// Deposits of online bookings: pending_payment until marked paid, or cancelled when overdue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { cancelOverdueDeposits } from '../../../src/bookings/deposits/deposits.service.ts';
import { confirm, eventsOf, hold, localTimesOf, search, shop } from '../online/helpers.ts';

const t = await startTestApp({ now: '2026-06-01T08:00:00Z' });
const NINE = '2026-06-02T08:00:00.000Z';

async function booked(w: Awaited<ReturnType<typeof shop>>, startsAt = NINE) {
  const held = await hold(w, { starts_at: startsAt });
  assert.equal(held.status, 200, JSON.stringify(held.body));
  const res = await confirm(w, held.body.hold.id);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.appointment;
}

/** Whether the sweep's list (pending_deposits, kept by trigger from the status) holds the booking. */
async function waiting(id: string): Promise<boolean> {
  return (await t.db.query('SELECT 1 FROM pending_deposits WHERE appointment_id = $1', [id])).rows.length === 1;
}

test('a deposit policy makes the booking pending_payment with deposit_pence snapshotted; marking it paid confirms it', async () => {
  const w = await shop({ t, service: { price_pence: 5000, deposit_policy: JSON.stringify({ percent: 20 }) } });
  const a = await booked(w);
  assert.deepEqual(
    [a.status, a.payment_status, a.price_pence, a.deposit_pence, a.balance_pence],
    ['pending_payment', 'none', 5000, 1000, 5000],
  );
  assert.equal(await waiting(a.id), true, 'listed for the sweep while pending');
  const paid = await call(t.app, 'POST', '/api/v1/bookings/appointments/deposit-paid', {
    token: w.merchant,
    body: { store_id: w.storeId, appointment_id: a.id },
  });
  assert.deepEqual(paid.body, {
    appointment_id: a.id,
    status: 'confirmed',
    payment_status: 'deposit_paid',
    noop: false,
  });
  assert.equal(await waiting(a.id), false, 'paid: no longer listed');
  const again = await call(t.app, 'POST', '/api/v1/bookings/appointments/deposit-paid', {
    token: w.merchant,
    body: { store_id: w.storeId, appointment_id: a.id },
  });
  assert.deepEqual(again.body, {
    appointment_id: a.id,
    status: 'confirmed',
    payment_status: 'deposit_paid',
    noop: true,
  });
  const events = await eventsOf(t, w.storeId, 'appointment.deposit_paid');
  assert.deepEqual(
    events.map((e) => [e.id, e.status, e.payment_status, e.balance_pence]),
    [[a.id, 'confirmed', 'deposit_paid', 4000]],
  );
  // Paid in time: the sweep leaves it alone.
  t.clock.advance(60 * 60_000);
  try {
    assert.equal(await cancelOverdueDeposits(t.db, t.clock.now()), 0);
  } finally {
    t.clock.set('2026-06-01T08:00:00Z');
  }
});

test('the operator can mark a deposit paid; a confirmed booking has none waiting', async () => {
  const w = await shop({ t, service: { price_pence: 5000, deposit_policy: JSON.stringify({ amount_pence: 1500 }) } });
  const a = await booked(w);
  assert.equal(a.deposit_pence, 1500);
  const url = `/admin/v1/stores/${w.storeId}/appointments/${a.id}/deposit-paid`;
  assert.equal((await call(t.app, 'POST', url, { token: ADMIN_TOKEN })).body.status, 'confirmed');
  const other = await t.fx.store();
  assert.equal(
    (
      await call(t.app, 'POST', `/admin/v1/stores/${other.id}/appointments/${a.id}/deposit-paid`, {
        token: ADMIN_TOKEN,
      })
    ).status,
    404,
  );
  const plain = await shop({ t });
  const b = await booked(plain);
  assert.equal(b.status, 'confirmed');
  assert.equal(
    errorCode(
      await call(t.app, 'POST', '/api/v1/bookings/appointments/deposit-paid', {
        token: plain.merchant,
        body: { store_id: plain.storeId, appointment_id: b.id },
      }),
    ),
    'NOT_PENDING_PAYMENT',
  );
});

test('an unpaid deposit past deposit_due_minutes is cancelled by the sweep, freeing the slot and emitting appointment.cancelled', async () => {
  const w = await shop({
    t,
    settings: { deposit_due_minutes: 30 },
    service: { price_pence: 5000, deposit_policy: JSON.stringify({ amount_pence: 1000 }) },
  });
  const a = await booked(w);
  assert.ok(
    !localTimesOf(await search(w, { from_date: '2026-06-02', to_date: '2026-06-02' }), '2026-06-02').includes('09:00'),
  );
  t.clock.advance(29 * 60_000);
  try {
    assert.equal(await cancelOverdueDeposits(t.db, t.clock.now()), 0);
    t.clock.advance(60_000);
    assert.equal(await cancelOverdueDeposits(t.db, t.clock.now()), 1);
    const row = await t.db.query<{ status: string; cancel_reason: string }>(
      'SELECT status, cancel_reason FROM appointments WHERE id = $1',
      [a.id],
    );
    assert.deepEqual(row.rows[0], { status: 'cancelled', cancel_reason: 'deposit_not_paid' });
    assert.equal(await waiting(a.id), false, 'cancelled: no longer listed');
    assert.deepEqual(
      (await eventsOf(t, w.storeId, 'appointment.cancelled')).map((e) => [e.id, e.status]),
      [[a.id, 'cancelled']],
    );
    assert.ok(
      localTimesOf(await search(w, { from_date: '2026-06-02', to_date: '2026-06-02' }), '2026-06-02').includes('09:00'),
    );
    assert.equal(
      errorCode(
        await call(t.app, 'POST', '/api/v1/bookings/appointments/deposit-paid', {
          token: w.merchant,
          body: { store_id: w.storeId, appointment_id: a.id },
        }),
      ),
      'NOT_PENDING_PAYMENT',
    );
    assert.equal(await cancelOverdueDeposits(t.db, t.clock.now()), 0);
  } finally {
    t.clock.set('2026-06-01T08:00:00Z');
  }
});

test('what an online booking snapshots: a per_person price times the party; a fixed deposit capped at the price; a share rounded half up', async () => {
  const perHead = await shop({
    t,
    service: {
      price_type: 'per_person',
      price_pence: 1250,
      party_min: 1,
      party_max: 4,
      deposit_policy: JSON.stringify({ percent: 10 }),
    },
  });
  const held = await hold(perHead, { starts_at: NINE, party_size: 3 });
  assert.equal(held.status, 200, JSON.stringify(held.body));
  const group = (await confirm(perHead, held.body.hold.id)).body.appointment;
  // 3 x 1250 = 3750; 10% is 375.
  assert.deepEqual(
    [group.party_size, group.price_pence, group.deposit_pence, group.status],
    [3, 3750, 375, 'pending_payment'],
  );
  const capped = await booked(
    await shop({ t, service: { price_pence: 1200, deposit_policy: JSON.stringify({ amount_pence: 5000 }) } }),
  );
  assert.deepEqual([capped.price_pence, capped.deposit_pence], [1200, 1200]);
  // 15% of 2505 is 375.75 -> 376; 10% of 2505 is 250.5 -> 251 (half up).
  const share = await booked(
    await shop({ t, service: { price_pence: 2505, deposit_policy: JSON.stringify({ percent: 15 }) } }),
  );
  assert.deepEqual([share.price_pence, share.deposit_pence], [2505, 376]);
  const half = await booked(
    await shop({ t, service: { price_pence: 2505, deposit_policy: JSON.stringify({ percent: 10 }) } }),
  );
  assert.deepEqual([half.price_pence, half.deposit_pence], [2505, 251]);
  // Shapes that ask nothing: a zero, a fraction of a penny as a fixed amount, an empty policy.
  for (const policy of [{ amount_pence: 0 }, { amount_pence: 10.5 }, {}]) {
    const none = await booked(
      await shop({ t, service: { price_pence: 2000, deposit_policy: JSON.stringify(policy) } }),
    );
    assert.deepEqual([none.deposit_pence, none.status], [0, 'confirmed'], JSON.stringify(policy));
  }
});
