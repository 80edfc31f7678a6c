// The spec's "Appointment status" table, row by row, with the database state after each call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorCode } from '../../support/http.ts';
import { auditCount, booked, forceStatus, post, row, world } from './helpers.ts';

const w = await world({ now: '2026-06-01T09:00:00Z' });
const NOW = '2026-06-01T09:00:00.000Z';
let day = 0;

/** A fresh confirmed appointment on its own day, starting at 10:00Z. */
async function fresh(status?: string): Promise<string> {
  day++;
  const d = String(day + 1).padStart(2, '0');
  const id = await booked(w, { starts_at: `2026-07-${d}T10:00:00Z`, ends_at: `2026-07-${d}T11:00:00Z` });
  if (status) await forceStatus(w, id, status);
  return id;
}

async function refusedUnchanged(action: string, id: string, code: string) {
  const before = await row(w, id);
  const audits = await auditCount(w, id);
  const res = await post(w, action, { appointment_id: id });
  assert.equal(res.status, 409, JSON.stringify(res.body));
  assert.equal(errorCode(res), code);
  assert.deepEqual(await row(w, id), before);
  assert.equal(await auditCount(w, id), audits);
}

test('confirmed → check-in → checked_in, audited, checked_in_at set', async () => {
  const id = await fresh();
  const res = await post(w, 'check-in', { appointment_id: id });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { appointment_id: id, status: 'checked_in', noop: false });
  const r = await row(w, id);
  assert.equal(r.status, 'checked_in');
  assert.equal(r.checked_in_at, NOW);
  assert.equal(await auditCount(w, id, 'appointment.checked_in'), 1);
});

test('checked_in → check-in again → checked_in with noop=true, no second change', async () => {
  const id = await fresh();
  await post(w, 'check-in', { appointment_id: id });
  const before = await row(w, id);
  w.t.clock.advance(60_000);
  const res = await post(w, 'check-in', { appointment_id: id });
  w.t.clock.set(NOW);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { appointment_id: id, status: 'checked_in', noop: true });
  assert.deepEqual(await row(w, id), before);
  assert.equal(await auditCount(w, id, 'appointment.checked_in'), 1);
});

test('check-in is refused from completed, cancelled, no_show and pending_payment', async () => {
  for (const status of ['completed', 'cancelled', 'no_show', 'pending_payment']) {
    await refusedUnchanged('check-in', await fresh(status), 'INVALID_TRANSITION');
  }
});

test('confirmed or checked_in → complete → completed, audited, no money moves', async () => {
  const confirmed = await fresh();
  const res = await post(w, 'complete', { appointment_id: confirmed });
  assert.deepEqual(res.body, { appointment_id: confirmed, status: 'completed', noop: false });
  const checkedIn = await fresh();
  await post(w, 'check-in', { appointment_id: checkedIn });
  const res2 = await post(w, 'complete', { appointment_id: checkedIn });
  assert.deepEqual(res2.body, { appointment_id: checkedIn, status: 'completed', noop: false });
  for (const id of [confirmed, checkedIn]) {
    const r = await row(w, id);
    assert.equal(r.status, 'completed');
    assert.equal(r.completed_at, NOW);
    assert.equal(r.payment_status, 'none');
    assert.equal(r.settled_pence, 0);
    assert.equal(await auditCount(w, id, 'appointment.completed'), 1);
  }
});

test('completed → complete again → completed with noop=true', async () => {
  const id = await fresh();
  await post(w, 'complete', { appointment_id: id });
  const before = await row(w, id);
  const res = await post(w, 'complete', { appointment_id: id });
  assert.deepEqual(res.body, { appointment_id: id, status: 'completed', noop: true });
  assert.deepEqual(await row(w, id), before);
  assert.equal(await auditCount(w, id, 'appointment.completed'), 1);
});

test('cancelled or no_show → complete is refused (INVALID_TRANSITION); so is pending_payment', async () => {
  for (const status of ['cancelled', 'no_show', 'pending_payment']) {
    await refusedUnchanged('complete', await fresh(status), 'INVALID_TRANSITION');
  }
});

test('confirmed → no-show once the appointment is due → no_show, audited, slot released', async () => {
  const id = await fresh();
  const r0 = await row(w, id);
  w.t.clock.set(r0.starts_at);
  try {
    const res = await post(w, 'no-show', { appointment_id: id });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { appointment_id: id, status: 'no_show', noop: false });
    const r = await row(w, id);
    assert.equal(r.status, 'no_show');
    assert.equal(r.no_show_at, r0.starts_at);
    assert.equal(await auditCount(w, id, 'appointment.no_show'), 1);
    const rebook = await booked(w, { starts_at: r0.starts_at, ends_at: r0.ends_at });
    assert.notEqual(rebook, id);
  } finally {
    w.t.clock.set(NOW);
  }
});

test('confirmed → no-show while the appointment is in the future → refused NOT_YET_DUE', async () => {
  const id = await fresh();
  const r0 = await row(w, id);
  w.t.clock.set(new Date(Date.parse(r0.starts_at) - 1000));
  try {
    await refusedUnchanged('no-show', id, 'NOT_YET_DUE');
  } finally {
    w.t.clock.set(NOW);
  }
});

test('checked_in → no-show → refused ALREADY_CHECKED_IN (the guest showed up)', async () => {
  const id = await fresh();
  await post(w, 'check-in', { appointment_id: id });
  w.t.clock.set('2026-12-31T00:00:00Z');
  try {
    await refusedUnchanged('no-show', id, 'ALREADY_CHECKED_IN');
  } finally {
    w.t.clock.set(NOW);
  }
});

test('no_show → no-show again → no_show with noop=true', async () => {
  const id = await fresh();
  w.t.clock.set('2026-12-31T00:00:00Z');
  try {
    await post(w, 'no-show', { appointment_id: id });
    const before = await row(w, id);
    const res = await post(w, 'no-show', { appointment_id: id });
    assert.deepEqual(res.body, { appointment_id: id, status: 'no_show', noop: true });
    assert.deepEqual(await row(w, id), before);
    assert.equal(await auditCount(w, id, 'appointment.no_show'), 1);
  } finally {
    w.t.clock.set(NOW);
  }
});

test('no-show is refused from completed, cancelled and pending_payment', async () => {
  w.t.clock.set('2026-12-31T00:00:00Z');
  try {
    for (const status of ['completed', 'cancelled', 'pending_payment']) {
      await refusedUnchanged('no-show', await fresh(status), 'INVALID_TRANSITION');
    }
  } finally {
    w.t.clock.set(NOW);
  }
});

test('any active status → cancel → cancelled: block released, row kept, reason kept, audited', async () => {
  for (const status of ['confirmed', 'checked_in', 'pending_payment']) {
    const id = await fresh(status === 'confirmed' ? undefined : status);
    const r0 = await row(w, id);
    const res = await post(w, 'cancel', { appointment_id: id, reason: 'Customer phoned' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { appointment_id: id, cancelled: true, noop: false });
    const r = await row(w, id);
    assert.equal(r.status, 'cancelled');
    assert.equal(r.cancelled_at, NOW);
    assert.equal(r.cancel_reason, 'Customer phoned');
    // Kept, with its times: only the status released it.
    assert.equal(r.block_starts_at, r0.block_starts_at);
    assert.equal(r.block_ends_at, r0.block_ends_at);
    assert.equal(await auditCount(w, id, 'appointment.cancelled'), 1);
    await booked(w, { starts_at: r0.starts_at, ends_at: r0.ends_at });
  }
});

test('a cancel without a reason keeps a null reason', async () => {
  const id = await fresh();
  const res = await post(w, 'cancel', { appointment_id: id });
  assert.deepEqual(res.body, { appointment_id: id, cancelled: true, noop: false });
  assert.equal((await row(w, id)).cancel_reason, null);
});

test('cancelled → cancel again → noop=true, no second state change, first reason stands', async () => {
  const id = await fresh();
  await post(w, 'cancel', { appointment_id: id, reason: 'First' });
  const before = await row(w, id);
  w.t.clock.advance(60_000);
  const res = await post(w, 'cancel', { appointment_id: id, reason: 'Second' });
  w.t.clock.set(NOW);
  assert.deepEqual(res.body, { appointment_id: id, cancelled: true, noop: true });
  assert.deepEqual(await row(w, id), before);
  assert.equal(await auditCount(w, id, 'appointment.cancelled'), 1);
});

test('completed → cancel → unchanged with noop=true (cancelled: false)', async () => {
  const id = await fresh();
  await post(w, 'complete', { appointment_id: id });
  const before = await row(w, id);
  const res = await post(w, 'cancel', { appointment_id: id, reason: 'Too late' });
  assert.deepEqual(res.body, { appointment_id: id, cancelled: false, noop: true });
  assert.deepEqual(await row(w, id), before);
  assert.equal(await auditCount(w, id, 'appointment.cancelled'), 0);
});

test('no_show → cancel is refused (INVALID_TRANSITION): a no-show is not active', async () => {
  const id = await fresh('no_show');
  const before = await row(w, id);
  const res = await post(w, 'cancel', { appointment_id: id });
  assert.equal(res.status, 409);
  assert.equal(errorCode(res), 'INVALID_TRANSITION');
  assert.deepEqual(await row(w, id), before);
});

test('an unknown appointment id is 404 NOT_FOUND for every status operation', async () => {
  for (const action of ['check-in', 'complete', 'no-show', 'cancel']) {
    const res = await post(w, action, { appointment_id: '00000000-0000-4000-8000-0000000000aa' });
    assert.equal(res.status, 404);
    assert.equal(errorCode(res), 'NOT_FOUND');
  }
});
