// Daylight-saving days in London: 01:30 does not exist on 2027-03-28 and happens twice on
// 2027-10-31. Every offered slot is a real instant, offered once, and reads back as its local time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { ALL_WEEK, confirm, hold, search, shop } from './helpers.ts';

const t = await startTestApp({ now: '2027-03-01T12:00:00Z' });

function wall(instant: string, tz: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: tz,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(instant));
}

test('spring forward (2027-03-28): the missing hour offers nothing, and no slot is an hour off', async () => {
  const w = await shop({
    t,
    week: ALL_WEEK([{ open: '00:00', close: '04:00' }]),
    settings: { slot_step_min: 30 },
    service: { duration_min: 30 },
  });
  const res = await search(w, { from_date: '2027-03-28', to_date: '2027-03-28' });
  const slots = res.body.days[0].slots;
  assert.deepEqual(
    slots.map((s: any) => s.local_time),
    ['00:00', '00:30', '02:00', '02:30', '03:00', '03:30'],
  );
  assert.deepEqual(
    slots.map((s: any) => s.starts_at),
    [
      '2027-03-28T00:00:00.000Z',
      '2027-03-28T00:30:00.000Z',
      '2027-03-28T01:00:00.000Z',
      '2027-03-28T01:30:00.000Z',
      '2027-03-28T02:00:00.000Z',
      '2027-03-28T02:30:00.000Z',
    ],
  );
  for (const s of slots) assert.equal(wall(s.starts_at, 'Europe/London'), s.local_time);
  // 01:30 local does not exist: 01:30 GMT is 02:30 BST, offered as 02:30 and holdable as such.
  const held = await hold(w, { starts_at: '2027-03-28T01:30:00Z' });
  assert.equal(held.status, 200, JSON.stringify(held.body));
  assert.equal((await confirm(w, held.body.hold.id)).body.appointment.ends_at, '2027-03-28T02:00:00.000Z');
});

test('fall back (2027-10-31): 01:00 and 01:30 happen twice and are offered once per real instant', async () => {
  t.clock.set('2027-10-01T12:00:00Z');
  const w = await shop({
    t,
    week: ALL_WEEK([{ open: '00:00', close: '04:00' }]),
    settings: { slot_step_min: 30 },
    service: { duration_min: 30 },
  });
  const res = await search(w, { from_date: '2027-10-31', to_date: '2027-10-31' });
  const slots = res.body.days[0].slots;
  assert.deepEqual(
    slots.map((s: any) => s.local_time),
    ['00:00', '00:30', '01:00', '01:30', '01:00', '01:30', '02:00', '02:30', '03:00', '03:30'],
  );
  assert.deepEqual(
    slots.map((s: any) => s.starts_at),
    [
      '2027-10-30T23:00:00.000Z',
      '2027-10-30T23:30:00.000Z',
      '2027-10-31T00:00:00.000Z',
      '2027-10-31T00:30:00.000Z',
      '2027-10-31T01:00:00.000Z',
      '2027-10-31T01:30:00.000Z',
      '2027-10-31T02:00:00.000Z',
      '2027-10-31T02:30:00.000Z',
      '2027-10-31T03:00:00.000Z',
      '2027-10-31T03:30:00.000Z',
    ],
  );
  assert.equal(new Set(slots.map((s: any) => s.starts_at)).size, slots.length);
  for (const s of slots) assert.equal(wall(s.starts_at, 'Europe/London'), s.local_time);
  // Both 01:30s are separate instants: both can be held on the one unit.
  const first = await hold(w, { starts_at: '2027-10-31T00:30:00Z' });
  const second = await hold(w, { starts_at: '2027-10-31T01:30:00Z' });
  assert.equal(first.status, 200);
  assert.equal(second.status, 200);
  assert.equal(first.body.hold.unit_id, second.body.hold.unit_id);
  const after = await search(w, { from_date: '2027-10-31', to_date: '2027-10-31' });
  assert.deepEqual(
    after.body.days[0].slots.map((s: any) => s.local_time),
    ['00:00', '00:30', '01:00', '01:00', '02:00', '02:30', '03:00', '03:30'],
  );
});
