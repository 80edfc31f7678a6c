// Settle: the six rules of the spec, with the settlements rows and the appointment row after each call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorCode } from '../../support/http.ts';
import { auditCount, booked, count, forceStatus, post, row, world } from './helpers.ts';

const w = await world({ now: '2026-06-01T09:00:00Z' });
const NOW = '2026-06-01T09:00:00.000Z';
const colleague = await w.t.fx.merchantToken(w.storeId, { userId: 'staff-2', staffName: 'Pat Partner' });
let day = 0;

async function fresh(
  price: number,
  extra: { deposit?: number; paymentStatus?: string; status?: string } = {},
): Promise<string> {
  day++;
  const d = String(day).padStart(2, '0');
  const id = await booked(w, {
    starts_at: `2026-08-${d}T10:00:00Z`,
    ends_at: `2026-08-${d}T11:00:00Z`,
    price_pence: price,
  });
  if (extra.deposit !== undefined || extra.paymentStatus) {
    await w.t.db.query('UPDATE appointments SET deposit_pence = $2, payment_status = $3 WHERE id = $1', [
      id,
      extra.deposit ?? 0,
      extra.paymentStatus ?? 'none',
    ]);
  }
  if (extra.status) await forceStatus(w, id, extra.status);
  return id;
}

const settlementRows = (id: string) =>
  count(w, 'SELECT count(*) AS n FROM settlements WHERE appointment_id = $1', [id]);
const settlementSum = (id: string) =>
  count(w, 'SELECT COALESCE(sum(amount_pence), 0) AS n FROM settlements WHERE appointment_id = $1', [id]);

test('settling records the whole outstanding amount, completes the appointment and marks it paid', async () => {
  const id = await fresh(3000);
  const res = await post(w, 'settle', { appointment_id: id, method: 'cash' });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body, {
    outcome: 'settled',
    appointment_id: id,
    status: 'completed',
    payment_status: 'paid',
    outstanding_pence: 0,
    collected_pence: 3000,
    settled_total_pence: 3000,
    currency: 'GBP',
    method: 'cash',
    settled_at: NOW,
    settled_by_you: true,
    settled_by_name: 'Sam Staff',
  });
  const r = await row(w, id);
  assert.equal(r.status, 'completed');
  assert.equal(r.completed_at, NOW);
  assert.equal(r.payment_status, 'paid');
  assert.equal(r.settled_pence, 3000);
  assert.equal(await settlementRows(id), 1);
  assert.equal(await settlementSum(id), 3000);
  const s = await w.t.db.query(
    'SELECT amount_pence, currency, method, settled_by_user_id, settled_by_name FROM settlements WHERE appointment_id = $1',
    [id],
  );
  assert.deepEqual(s.rows[0], {
    amount_pence: 3000,
    currency: 'GBP',
    method: 'cash',
    settled_by_user_id: 'staff-1',
    settled_by_name: 'Sam Staff',
  });
  assert.equal(await auditCount(w, id, 'appointment.settled'), 1);
});

test('a repeat never records twice: already_settled with who, how and how much', async () => {
  const id = await fresh(2500);
  await post(w, 'settle', { appointment_id: id, method: 'card_machine' });
  w.t.clock.advance(5 * 60_000);
  const mine = await post(w, 'settle', { appointment_id: id, method: 'cash' });
  const theirs = await post(w, 'settle', { appointment_id: id, method: 'cash' }, { token: colleague });
  w.t.clock.set(NOW);
  const expected = {
    outcome: 'already_settled',
    appointment_id: id,
    status: 'completed',
    payment_status: 'paid',
    outstanding_pence: 0,
    collected_pence: 0,
    settled_total_pence: 2500,
    currency: 'GBP',
    method: 'card_machine',
    settled_at: NOW,
    settled_by_name: 'Sam Staff',
  };
  assert.deepEqual(mine.body, { ...expected, settled_by_you: true });
  assert.deepEqual(theirs.body, { ...expected, settled_by_you: false });
  assert.equal(await settlementRows(id), 1);
  assert.equal((await row(w, id)).settled_pence, 2500);
});

test('a short settle leaves the residual collectable; the next settle collects it and totals accumulate', async () => {
  const id = await fresh(3000);
  // An earlier short settle of 1000 (the amount agreed then), recorded exactly as settle records it.
  await w.t.db.query(
    `INSERT INTO settlements (store_id, appointment_id, amount_pence, currency, method, settled_by_user_id, settled_by_name, settled_at)
     VALUES ($1, $2, 1000, 'GBP', 'cash', 'staff-2', 'Pat Partner', '2026-05-31T12:00:00Z')`,
    [w.storeId, id],
  );
  await w.t.db.query('UPDATE appointments SET settled_pence = 1000 WHERE id = $1', [id]);
  const res = await post(w, 'settle', { appointment_id: id, method: 'card_machine' });
  assert.equal(res.body.outcome, 'settled');
  assert.equal(res.body.collected_pence, 2000);
  assert.equal(res.body.settled_total_pence, 3000);
  assert.equal(res.body.outstanding_pence, 0);
  const r = await row(w, id);
  assert.equal(r.settled_pence, 3000);
  assert.equal(await settlementSum(id), r.settled_pence);
  assert.equal(await settlementRows(id), 2);
  const again = await post(w, 'settle', { appointment_id: id, method: 'cash' });
  assert.equal(again.body.outcome, 'already_settled');
  assert.equal(again.body.method, 'card_machine');
  assert.equal(again.body.settled_total_pence, 3000);
  assert.equal(await settlementRows(id), 2);
});

test('nothing owed is a successful no-op: nothing_owed, method null, nothing recorded, status unchanged', async () => {
  const free = await fresh(0);
  const res = await post(w, 'settle', { appointment_id: free, method: 'cash' });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, {
    outcome: 'nothing_owed',
    appointment_id: free,
    status: 'confirmed',
    payment_status: 'none',
    outstanding_pence: 0,
    collected_pence: 0,
    settled_total_pence: 0,
    currency: 'GBP',
    method: null,
    settled_at: null,
    settled_by_you: false,
    settled_by_name: null,
  });
  assert.equal(await settlementRows(free), 0);
  assert.equal((await row(w, free)).status, 'confirmed');
  assert.equal(await auditCount(w, free, 'appointment.settled'), 0);
});

test('nothing_owed when the deposit paid covered the price', async () => {
  const id = await fresh(2000, { deposit: 2000, paymentStatus: 'deposit_paid' });
  const res = await post(w, 'settle', { appointment_id: id, method: 'cash' });
  assert.equal(res.body.outcome, 'nothing_owed');
  assert.equal(res.body.payment_status, 'deposit_paid');
  assert.equal(res.body.method, null);
  assert.equal(await settlementRows(id), 0);
});

test('the deposit actually paid is subtracted; a deposit not paid is not', async () => {
  const paid = await fresh(3000, { deposit: 1000, paymentStatus: 'deposit_paid' });
  const a = await post(w, 'settle', { appointment_id: paid, method: 'cash' });
  assert.equal(a.body.collected_pence, 2000);
  assert.equal(a.body.settled_total_pence, 2000);
  assert.equal(a.body.payment_status, 'paid');
  const unpaid = await fresh(3000, { deposit: 1000, paymentStatus: 'failed' });
  const b = await post(w, 'settle', { appointment_id: unpaid, method: 'cash' });
  assert.equal(b.body.collected_pence, 3000);
});

test('an appointment already paid in full online has nothing owed', async () => {
  const id = await fresh(3000, { paymentStatus: 'paid' });
  const res = await post(w, 'settle', { appointment_id: id, method: 'cash' });
  assert.equal(res.body.outcome, 'nothing_owed');
  assert.equal(await settlementRows(id), 0);
});

test('settling a checked_in or completed appointment leaves it completed', async () => {
  const checkedIn = await fresh(1500);
  await post(w, 'check-in', { appointment_id: checkedIn });
  assert.equal((await post(w, 'settle', { appointment_id: checkedIn, method: 'cash' })).body.status, 'completed');
  const completed = await fresh(1500);
  w.t.clock.set('2026-06-01T08:00:00Z');
  await post(w, 'complete', { appointment_id: completed });
  w.t.clock.set(NOW);
  const res = await post(w, 'settle', { appointment_id: completed, method: 'cash' });
  assert.equal(res.body.outcome, 'settled');
  assert.equal(res.body.status, 'completed');
  // The instant it was completed is kept.
  assert.equal((await row(w, completed)).completed_at, '2026-06-01T08:00:00.000Z');
});

test('a no-show is never settled here: NO_SHOW_NOT_SETTLEABLE, nothing recorded', async () => {
  const id = await fresh(3000, { status: 'no_show' });
  const before = await row(w, id);
  const res = await post(w, 'settle', { appointment_id: id, method: 'cash' });
  assert.equal(res.status, 409);
  assert.equal(errorCode(res), 'NO_SHOW_NOT_SETTLEABLE');
  assert.deepEqual(await row(w, id), before);
  assert.equal(await settlementRows(id), 0);
});

test('a cancelled or pending_payment appointment cannot be settled (INVALID_TRANSITION)', async () => {
  for (const status of ['cancelled', 'pending_payment']) {
    const id = await fresh(3000, { status });
    const res = await post(w, 'settle', { appointment_id: id, method: 'cash' });
    assert.equal(res.status, 409);
    assert.equal(errorCode(res), 'INVALID_TRANSITION');
    assert.equal(await settlementRows(id), 0);
    assert.equal((await row(w, id)).status, status);
  }
});

test('settle needs can_use_bookings and can_process_payments', async () => {
  const id = await fresh(3000);
  const noPermission = await w.t.fx.merchantToken(w.storeId, { permissions: [] });
  const noEntitlement = await w.t.fx.merchantToken(w.storeId, { entitlements: ['classes'] });
  const a = await post(w, 'settle', { appointment_id: id, method: 'cash' }, { token: noPermission });
  assert.equal(a.status, 403);
  assert.equal(errorCode(a), 'MISSING_PERMISSION');
  const b = await post(w, 'settle', { appointment_id: id, method: 'cash' }, { token: noEntitlement });
  assert.equal(b.status, 403);
  assert.equal(errorCode(b), 'MISSING_ENTITLEMENT');
  assert.equal(await settlementRows(id), 0);
});

test('the amount is never accepted from the client; the method must be cash or card_machine', async () => {
  const id = await fresh(3000);
  const amount = await post(w, 'settle', { appointment_id: id, method: 'cash', amount_pence: 1 });
  assert.equal(amount.status, 400);
  assert.equal(errorCode(amount), 'VALIDATION_FAILED');
  const method = await post(w, 'settle', { appointment_id: id, method: 'voucher' });
  assert.equal(method.status, 400);
  assert.equal(await settlementRows(id), 0);
});

test('a settle retried with the same Idempotency-Key replays the first answer and records once', async () => {
  const id = await fresh(1800);
  const send = () =>
    w.t.app.inject({
      method: 'POST',
      url: '/api/v1/bookings/appointments/settle',
      headers: { authorization: `Bearer ${w.token}`, 'idempotency-key': `settle-${id}` },
      payload: { store_id: w.storeId, appointment_id: id, method: 'cash' },
    });
  const first = await send();
  const again = await send();
  assert.equal(first.statusCode, 200);
  assert.equal(again.statusCode, 200);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.deepEqual(JSON.parse(again.body), JSON.parse(first.body));
  assert.equal(JSON.parse(again.body).outcome, 'settled');
  assert.equal(await settlementRows(id), 1);
});
