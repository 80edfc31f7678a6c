import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorCode } from '../../support/http.ts';
import {
  auditCount,
  booked,
  create,
  forceStatus,
  overlappingLiveBlocks,
  post,
  row,
  world,
  type World,
} from './helpers.ts';

const w = await world({ now: '2026-06-01T09:00:00Z' });
const chair2 = await w.t.fx.unit(w.storeId, { display_name: 'Chair 2' });
let day = 0;

function slot(hour: number, minutes = 60, d = day) {
  const date = `2026-09-${String(d).padStart(2, '0')}`;
  const start = new Date(`${date}T${String(hour).padStart(2, '0')}:00:00Z`);
  return { starts_at: start.toISOString(), ends_at: new Date(start.getTime() + minutes * 60_000).toISOString() };
}

async function fresh(hour = 10, world: World = w): Promise<string> {
  return booked(world, slot(hour));
}

function move(id: string, body: Record<string, unknown>, world: World = w) {
  return post(world, 'reschedule', { appointment_id: id, unit_id: world.unitId, ...body });
}

async function untouched(id: string, res: { status: number }, status: number, code: string, before: unknown) {
  assert.equal(res.status, status);
  assert.equal(errorCode(res as any), code);
  assert.deepEqual(await row(w, id), before);
  assert.equal(await auditCount(w, id, 'appointment.rescheduled'), 0);
}

test('a nudge within the same unit moves the appointment and its block: moved_in_place true, status unchanged', async () => {
  day++;
  const id = await fresh(10);
  const res = await move(id, { starts_at: `2026-09-0${day}T10:30:00Z`, ends_at: `2026-09-0${day}T11:30:00Z` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body, {
    appointment_id: id,
    unit_id: w.unitId,
    starts_at: `2026-09-0${day}T10:30:00.000Z`,
    ends_at: `2026-09-0${day}T11:30:00.000Z`,
    moved_in_place: true,
  });
  const r = await row(w, id);
  assert.equal(r.status, 'confirmed');
  assert.equal(r.block_starts_at, `2026-09-0${day}T10:30:00.000Z`);
  assert.equal(r.block_ends_at, `2026-09-0${day}T11:30:00.000Z`);
  assert.equal(await auditCount(w, id, 'appointment.rescheduled'), 1);
});

test('a move to another unit releases the old slot: moved_in_place false', async () => {
  day++;
  const id = await fresh(10);
  const res = await move(id, { unit_id: chair2.id, ...slot(10) });
  assert.equal(res.status, 200);
  assert.equal(res.body.moved_in_place, false);
  assert.equal(res.body.unit_id, chair2.id);
  assert.equal((await row(w, id)).unit_id, chair2.id);
  await booked(w, slot(10));
});

test('a move into a taken slot is 409 SLOT_TAKEN and leaves the original exactly as it was', async () => {
  day++;
  const id = await fresh(10);
  await fresh(14);
  const before = await row(w, id);
  w.t.clock.advance(60_000);
  const res = await move(id, slot(14, 30));
  w.t.clock.set('2026-06-01T09:00:00Z');
  await untouched(id, res, 409, 'SLOT_TAKEN', before);
  // The original slot is still held by it.
  const clash = await create(w, slot(10));
  assert.equal(errorCode(clash), 'SLOT_TAKEN');
  assert.equal(await overlappingLiveBlocks(w), 0);
});

test('a move into held or time-off time is 409 UNIT_UNAVAILABLE unless override', async () => {
  day++;
  const id = await fresh(10);
  const t = slot(16);
  await w.t.db.query(
    `INSERT INTO time_off (store_id, unit_id, starts_at, ends_at, kind, reason) VALUES ($1, $2, $3, $4, 'time_off', NULL)`,
    [w.storeId, w.unitId, t.starts_at, t.ends_at],
  );
  const before = await row(w, id);
  await untouched(id, await move(id, slot(16)), 409, 'UNIT_UNAVAILABLE', before);
  const forced = await move(id, { ...slot(16), override: true });
  assert.equal(forced.status, 200);
  assert.equal((await row(w, id)).is_override, true);
});

test('an override move into a taken slot succeeds, is_override, and still blocks nobody', async () => {
  day++;
  const id = await fresh(10);
  const other = await fresh(12);
  const res = await move(id, { ...slot(12), override: true });
  assert.equal(res.status, 200);
  assert.equal((await row(w, id)).is_override, true);
  assert.equal((await row(w, other)).status, 'confirmed');
  // Its old slot is free again.
  await booked(w, slot(10));
  assert.equal(await overlappingLiveBlocks(w), 0);
});

test('the cancellation window refuses a move once now is within the window of the current start, unless override', async () => {
  const s = await w.t.fx.store({ cancellation_window_min: 120 });
  const unit = await w.t.fx.unit(s.id);
  const ww: World = { t: w.t, storeId: s.id, unitId: unit.id, token: await w.t.fx.merchantToken(s.id) };
  // Now is 09:00; an appointment at 11:00 is exactly 120 minutes away: inside the window.
  const edge = await booked(ww, { starts_at: '2026-06-01T11:00:00Z', ends_at: '2026-06-01T12:00:00Z' });
  const before = await row(ww, edge);
  const res = await move(edge, { starts_at: '2026-06-05T11:00:00Z', ends_at: '2026-06-05T12:00:00Z' }, ww);
  assert.equal(res.status, 409);
  assert.equal(errorCode(res), 'CANCELLATION_WINDOW');
  assert.deepEqual(await row(ww, edge), before);
  // A move whose new time is far away does not escape it: the current start decides.
  const forced = await move(
    edge,
    { starts_at: '2026-06-05T11:00:00Z', ends_at: '2026-06-05T12:00:00Z', override: true },
    ww,
  );
  assert.equal(forced.status, 200);
  // One second outside the window is movable.
  const outside = await booked(ww, { starts_at: '2026-06-01T11:00:01Z', ends_at: '2026-06-01T12:00:00Z' });
  const ok = await move(outside, { starts_at: '2026-06-06T11:00:00Z', ends_at: '2026-06-06T12:00:00Z' }, ww);
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
});

test('with no cancellation window even a started appointment can be moved', async () => {
  const id = await booked(w, { starts_at: '2026-06-01T08:30:00Z', ends_at: '2026-06-01T09:30:00Z' });
  const res = await move(id, { starts_at: '2026-06-01T08:45:00Z', ends_at: '2026-06-01T09:45:00Z' });
  assert.equal(res.status, 200);
});

test('cancelled, completed and no_show appointments cannot be moved (INVALID_TRANSITION); checked_in and pending_payment can', async () => {
  day++;
  for (const [i, status] of (['cancelled', 'completed', 'no_show'] as const).entries()) {
    const id = await fresh(8 + i);
    await forceStatus(w, id, status);
    const before = await row(w, id);
    await untouched(id, await move(id, slot(15 + i)), 409, 'INVALID_TRANSITION', before);
  }
  for (const [i, status] of (['checked_in', 'pending_payment'] as const).entries()) {
    const id = await fresh(12 + i);
    await forceStatus(w, id, status);
    const res = await move(id, slot(18 + i));
    assert.equal(res.status, 200);
    assert.equal((await row(w, id)).status, status);
  }
});

test("a service's buffers widen the moved block too", async () => {
  day++;
  const service = await w.t.fx.service(w.storeId);
  await w.t.db.query('UPDATE services SET buffer_after_min = 15 WHERE id = $1', [service.id]);
  const id = await booked(w, { ...slot(10), service_id: service.id });
  await move(id, slot(13));
  const r = await row(w, id);
  assert.equal(r.ends_at, `2026-09-0${day}T14:00:00.000Z`);
  assert.equal(r.block_ends_at, `2026-09-0${day}T14:15:00.000Z`);
});

test('a destination unit of another store is 404 and nothing changes; so is an appointment of another store', async () => {
  day++;
  const id = await fresh(10);
  const other = await w.t.fx.store({ name: 'Elsewhere' });
  const otherUnit = await w.t.fx.unit(other.id);
  const before = await row(w, id);
  await untouched(id, await move(id, { unit_id: otherUnit.id, ...slot(12) }), 404, 'NOT_FOUND', before);
  const otherWorld: World = {
    t: w.t,
    storeId: other.id,
    unitId: otherUnit.id,
    token: await w.t.fx.merchantToken(other.id),
  };
  await untouched(id, await move(id, slot(12), otherWorld), 404, 'NOT_FOUND', before);
});

test('new times must make sense: an end not after its start is 400 and nothing changes', async () => {
  day++;
  const id = await fresh(10);
  const before = await row(w, id);
  const s = slot(12);
  await untouched(
    id,
    await move(id, { starts_at: s.ends_at, ends_at: s.starts_at }),
    400,
    'INVALID_TIME_RANGE',
    before,
  );
});
