// The customer's checkout costs at most 3 round trips to the database, BEGIN and COMMIT included
// (issue 18): hold, confirm and release are one statement each (db/functions/customer-*.sql), and so is the
// customer's own cancel, and so is recording the deposit paid (the shop's
// and the operator's), whatever the path: a first call with an Idempotency-Key, its replay, a retried
// confirm, a refusal, a noop repeat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { callSql } from '../../../src/platform/one-statement.ts';
import { countingDatabase, type CountingDatabase } from '../../support/round-trips.ts';
import { count, eventsOf, HOLDS, setStore, shop } from './helpers.ts';

const MAX_TRIPS = 3;
let counting!: CountingDatabase;
// Monday 2026-06-01 09:00 BST; 2026-06-02 08:00Z is 09:00 local.
const t = await startTestApp({ now: '2026-06-01T08:00:00Z', wrapDb: (db) => (counting = countingDatabase(db)).db });
const w = await shop({ t, units: 2, service: { duration_min: 30 } });
/** An instant on 2026-06-02, from its UTC "HH:MM". */
const at = (hhmm: string) => `2026-06-02T${hhmm}:00.000Z`;

async function costs(method: 'POST' | 'DELETE', path: string, body?: Record<string, unknown>, idempotencyKey?: string) {
  counting.take();
  const res = await call(t.app, method, path, { token: w.customer, idempotencyKey, body });
  return { res, ...counting.take() };
}
const holdCosts = (startsAt: string, key?: string, extra: Record<string, unknown> = {}) =>
  costs('POST', HOLDS, { store_id: w.storeId, service_id: w.serviceId, starts_at: startsAt, ...extra }, key);

function within(what: string, c: { trips: number; statements: string[] }) {
  assert.ok(c.trips <= MAX_TRIPS, `${what} took ${c.trips} round trips: ${c.statements.join(' | ')}`);
}

test(`a hold takes at most ${MAX_TRIPS} round trips: first, replay, refusals`, async () => {
  const first = await holdCosts(at('08:00'), 'co-hold-1');
  assert.equal(first.res.status, 200, JSON.stringify(first.res.body));
  // Exactly one statement, in its own implicit transaction.
  assert.deepEqual(first.sql, [callSql('bbo_customer_hold')]);
  const replay = await holdCosts(at('08:00'), 'co-hold-1');
  assert.equal(replay.res.headers['idempotent-replayed'], 'true');
  assert.deepEqual(replay.res.body, first.res.body);
  within('hold replay', replay);
  assert.equal(await count(t, 'SELECT count(*) AS n FROM holds WHERE store_id = $1', [w.storeId]), 1);
  // What the event carries: the hold as placed, with the store's local times.
  const h = first.res.body.hold;
  assert.deepEqual((await eventsOf(t, w.storeId, 'hold.created'))[0], {
    id: h.id,
    unit_id: w.units[0],
    customer_id: w.customerId,
    service_id: w.serviceId,
    starts_at: at('08:00'),
    ends_at: at('08:30'),
    expires_at: h.expires_at,
    released_at: null,
    release_reason: null,
    appointment_id: null,
    local_starts_at: '2026-06-02T09:00:00',
    local_ends_at: '2026-06-02T09:30:00',
  });

  const offStep = await holdCosts(at('08:10'));
  assert.equal(errorCode(offStep.res), 'SLOT_UNAVAILABLE');
  within('a start not offered', offStep);
  const party = await holdCosts(at('09:00'), undefined, { party_size: 3 });
  assert.equal(errorCode(party.res), 'PARTY_SIZE_OUT_OF_RANGE');
  within('a party the service does not take', party);
  const unknown = await costs('POST', HOLDS, { store_id: w.storeId, service_id: w.units[0], starts_at: at('09:00') });
  assert.equal(errorCode(unknown.res), 'NOT_FOUND');
  within('an unknown service', unknown);
  assert.equal(await count(t, 'SELECT count(*) AS n FROM holds WHERE store_id = $1', [w.storeId]), 1);
});

test(`a confirm takes at most ${MAX_TRIPS} round trips: first, replay, retried, lapsed`, async () => {
  const held = await holdCosts(at('10:00'));
  const id = held.res.body.hold.id;
  const note = { guest_note: '  By the window  ' };
  const first = await costs('POST', `${HOLDS}/${id}/confirm`, note, 'co-confirm-1');
  assert.equal(first.res.status, 200, JSON.stringify(first.res.body));
  assert.equal(first.res.body.reused, false);
  assert.deepEqual(first.sql, [callSql('bbo_customer_confirm')]);
  const appointment = first.res.body.appointment;
  const replay = await costs('POST', `${HOLDS}/${id}/confirm`, note, 'co-confirm-1');
  assert.equal(replay.res.headers['idempotent-replayed'], 'true');
  assert.deepEqual(replay.res.body, first.res.body);
  within('confirm replay', replay);
  // A retry without the key (the first answer was lost) returns the same appointment.
  const retried = await costs('POST', `${HOLDS}/${id}/confirm`, {});
  assert.deepEqual(retried.res.body, { appointment, reused: true });
  within('retried confirm', retried);
  assert.equal(
    await count(t, `SELECT count(*) AS n FROM appointments WHERE store_id = $1 AND guest_note = 'By the window'`, [
      w.storeId,
    ]),
    1,
  );
  assert.equal((await eventsOf(t, w.storeId, 'appointment.created')).length, 1);
  const audit = await t.db.query<{
    store_id: string;
    actor_kind: string;
    actor_id: string;
    details: Record<string, unknown>;
  }>(
    `SELECT store_id, actor_kind, actor_id, details FROM audit_log WHERE entity = 'appointment' AND entity_id = $1 AND action = 'appointment.created'`,
    [appointment.id],
  );
  assert.deepEqual(audit.rows, [
    {
      store_id: w.storeId,
      actor_kind: 'customer',
      actor_id: w.customerId,
      details: { store_id: w.storeId, hold_id: id, source: 'online', status: 'confirmed' },
    },
  ]);

  const late = await holdCosts(at('11:00'));
  t.clock.set('2026-06-01T08:30:00Z');
  try {
    const lapsed = await costs('POST', `${HOLDS}/${late.res.body.hold.id}/confirm`, {});
    assert.equal(errorCode(lapsed.res), 'HOLD_EXPIRED');
    within('a lapsed confirm', lapsed);
  } finally {
    t.clock.set('2026-06-01T08:00:00Z');
  }
});

test(`a release takes at most ${MAX_TRIPS} round trips, first and repeated`, async () => {
  const held = await holdCosts(at('12:00'));
  const id = held.res.body.hold.id;
  const first = await costs('DELETE', `${HOLDS}/${id}`, undefined, 'co-release-1');
  assert.deepEqual(first.res.body, { hold_id: id, released: true, noop: false });
  assert.deepEqual(first.sql, [callSql('bbo_customer_release')]);
  const repeat = await costs('DELETE', `${HOLDS}/${id}`);
  assert.deepEqual(repeat.res.body, { hold_id: id, released: false, noop: true });
  within('release repeat', repeat);
  const released = await eventsOf(t, w.storeId, 'hold.released');
  assert.deepEqual(
    released.filter((e) => e.id === id).map((e) => e.release_reason),
    ['released'],
  );
  // The audit rows of a customer's hold and release name the store, as every customer audit row does.
  const audit = await t.db.query<{ action: string; store_id: string }>(
    `SELECT action, store_id FROM audit_log WHERE entity = 'hold' AND entity_id = $1 ORDER BY action`,
    [id],
  );
  assert.deepEqual(audit.rows, [
    { action: 'hold.created', store_id: w.storeId },
    { action: 'hold.released', store_id: w.storeId },
  ]);
});

test(`the customer's own cancel takes at most ${MAX_TRIPS} round trips: first, repeat, inside the window`, async () => {
  const booked = async (hhmm: string) => {
    const held = await holdCosts(at(hhmm));
    const confirmed = await costs('POST', `${HOLDS}/${held.res.body.hold.id}/confirm`, {});
    assert.equal(confirmed.res.status, 200, JSON.stringify(confirmed.res.body));
    return confirmed.res.body.appointment.id as string;
  };
  const id = await booked('13:00');
  const first = await costs('POST', `/api/v1/me/appointments/${id}/cancel`, { reason: 'Clash' }, 'co-cancel-1');
  assert.deepEqual(first.res.body, { appointment_id: id, cancelled: true, noop: false });
  assert.deepEqual(first.sql, [callSql('bbo_customer_cancel')]);
  const repeat = await costs('POST', `/api/v1/me/appointments/${id}/cancel`, {});
  assert.deepEqual(repeat.res.body, { appointment_id: id, cancelled: true, noop: true });
  within('cancel repeat', repeat);
  const cancelled = (await eventsOf(t, w.storeId, 'appointment.cancelled')).filter((e) => e.id === id);
  assert.deepEqual(
    cancelled.map((e) => [e.status, e.previous.status, e.cancelled_by]),
    [['cancelled', 'confirmed', 'customer']],
  );
  const audit = await t.db.query<{ store_id: string; details: Record<string, unknown> }>(
    `SELECT store_id, details FROM audit_log WHERE entity_id = $1 AND action = 'appointment.cancelled'`,
    [id],
  );
  assert.deepEqual(audit.rows, [
    { store_id: w.storeId, details: { from: 'confirmed', to: 'cancelled', reason_given: true, store_id: w.storeId } },
  ]);

  const late = await booked('14:00');
  await setStore(t, w.storeId, { cancellation_window_min: 2 * 24 * 60 });
  try {
    const refused = await costs('POST', `/api/v1/me/appointments/${late}/cancel`, {});
    assert.equal(errorCode(refused.res), 'CANCELLATION_WINDOW');
    within('a cancel inside the window', refused);
    assert.equal(
      await count(t, `SELECT count(*) AS n FROM appointments WHERE id = $1 AND status = 'confirmed'`, [late]),
      1,
    );
  } finally {
    await setStore(t, w.storeId, { cancellation_window_min: 0 });
  }
});

test(`recording a deposit paid takes at most ${MAX_TRIPS} round trips: the shop's, its replay, a repeat, a refusal, the operator's`, async () => {
  const d = await shop({
    t,
    service: { duration_min: 30, price_pence: 5000, deposit_policy: JSON.stringify({ amount_pence: 1000 }) },
  });
  const book = async (hhmm: string, w2 = d) => {
    const held = await call(t.app, 'POST', HOLDS, {
      token: w2.customer,
      body: { store_id: w2.storeId, service_id: w2.serviceId, starts_at: at(hhmm) },
    });
    const confirmed = await call(t.app, 'POST', `${HOLDS}/${held.body.hold.id}/confirm`, {
      token: w2.customer,
      body: {},
    });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    return confirmed.body.appointment as { id: string; status: string };
  };
  const paidBy = async (token: string, id: string, key?: string) => {
    counting.take();
    const res = await call(t.app, 'POST', '/api/v1/bookings/appointments/deposit-paid', {
      token,
      idempotencyKey: key,
      body: { store_id: d.storeId, appointment_id: id },
    });
    return { res, ...counting.take() };
  };
  const booked = await book('08:00');
  assert.equal(booked.status, 'pending_payment');
  const id = booked.id;
  const first = await paidBy(d.merchant, id, 'co-paid-1');
  assert.deepEqual(first.res.body, {
    appointment_id: id,
    status: 'confirmed',
    payment_status: 'deposit_paid',
    noop: false,
  });
  assert.deepEqual(first.sql, [callSql('bbo_deposit_paid')]);
  const replay = await paidBy(d.merchant, id, 'co-paid-1');
  assert.equal(replay.res.headers['idempotent-replayed'], 'true');
  assert.deepEqual(replay.res.body, first.res.body);
  within('deposit-paid replay', replay);
  const repeat = await paidBy(d.merchant, id);
  assert.deepEqual(repeat.res.body, { ...first.res.body, noop: true });
  within('deposit-paid repeat', repeat);
  const events = await eventsOf(t, d.storeId, 'appointment.deposit_paid');
  assert.deepEqual(
    events.map((e) => [e.id, e.status, e.payment_status, e.deposit_pence, e.balance_pence]),
    [[id, 'confirmed', 'deposit_paid', 1000, 4000]],
  );
  const row = await t.db.query(`SELECT status, payment_status, updated_at FROM appointments WHERE id = $1`, [id]);
  assert.deepEqual(row.rows[0], {
    status: 'confirmed',
    payment_status: 'deposit_paid',
    updated_at: '2026-06-01T08:00:00.000Z',
  });

  // A booking with nothing to pay is refused, and nothing is written.
  const plain = await shop({ t, service: { duration_min: 30 } });
  const free = await book('08:00', plain);
  assert.equal(free.status, 'confirmed');
  counting.take();
  const refused = await call(t.app, 'POST', '/api/v1/bookings/appointments/deposit-paid', {
    token: plain.merchant,
    body: { store_id: plain.storeId, appointment_id: free.id },
  });
  assert.equal(errorCode(refused), 'NOT_PENDING_PAYMENT');
  within('a refusal', counting.take());

  // The operator's route: the same statement; its audit row names the store from the details.
  const other = (await book('09:00')).id;
  counting.take();
  const byOperator = await call(t.app, 'POST', `/admin/v1/stores/${d.storeId}/appointments/${other}/deposit-paid`, {
    token: ADMIN_TOKEN,
  });
  assert.equal(byOperator.body.status, 'confirmed');
  assert.deepEqual(counting.take().sql, [callSql('bbo_deposit_paid')]);
  const audit = await t.db.query<{
    entity_id: string;
    store_id: string;
    actor_kind: string;
    details: Record<string, unknown>;
  }>(
    `SELECT entity_id, store_id, actor_kind, details FROM audit_log WHERE action = 'appointment.deposit_paid' ORDER BY created_at, entity_id`,
  );
  assert.deepEqual(
    audit.rows.map((r) => [r.entity_id, r.store_id, r.actor_kind, r.details]).sort(),
    [
      [id, d.storeId, 'merchant', { store_id: d.storeId, deposit_pence: 1000 }],
      [other, d.storeId, 'admin', { store_id: d.storeId, deposit_pence: 1000 }],
    ].sort(),
  );
});
