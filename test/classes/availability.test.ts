// Online availability does not offer an instructor's unit while it teaches a class, and offers it again
// once the occurrence is cancelled (the availability cache records both changes); a hold into the
// class's time is refused by the occupancy constraint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call } from '../support/http.ts';
import { ALL_WEEK, hold, localTimesOf, search, shop } from '../bookings/online/helpers.ts';

const t = await startTestApp({ now: '2026-06-01T08:00:00Z' });

test("a class takes its instructor's time out of online availability; cancelled, the time is offered again", async () => {
  const w = await shop({ t, week: ALL_WEEK([{ open: '09:00', close: '13:00' }]) });
  const token = await t.fx.merchantToken(w.storeId);
  const before = localTimesOf(await search(w, { from_date: '2026-06-02', to_date: '2026-06-02' }), '2026-06-02');
  assert.ok(before.includes('10:00'));
  const c = await call(t.app, 'POST', '/api/v1/classes', {
    token,
    body: { name: 'Stretch', duration_min: 60, capacity: 6, instructor_unit_id: w.units[0] },
  });
  // 10:00-11:00 London (BST) is 09:00Z.
  const o = await call(t.app, 'POST', `/api/v1/classes/${c.body.class.id}/occurrences`, {
    token,
    body: { starts_at: '2026-06-02T09:00:00.000Z' },
  });
  assert.equal(o.status, 200, JSON.stringify(o.body));
  const during = localTimesOf(await search(w, { from_date: '2026-06-02', to_date: '2026-06-02' }), '2026-06-02');
  // A 60-minute service cannot start from 09:15 to 10:45 (it would meet the class).
  assert.deepEqual(
    during.filter((x) => x > '09:00' && x < '11:00'),
    [],
  );
  assert.ok(during.includes('09:00') && during.includes('11:00'));
  const held = await hold(w, { starts_at: '2026-06-02T09:30:00.000Z', unit_id: w.units[0] });
  assert.equal(held.status, 409, JSON.stringify(held.body));

  const cancelled = await call(t.app, 'POST', `/api/v1/classes/occurrences/${o.body.occurrence.id}/cancel`, {
    token,
    body: {},
  });
  assert.equal(cancelled.status, 200);
  assert.deepEqual(
    localTimesOf(await search(w, { from_date: '2026-06-02', to_date: '2026-06-02' }), '2026-06-02'),
    before,
  );
});
