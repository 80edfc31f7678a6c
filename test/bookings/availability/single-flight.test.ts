// Availability under writes (issue 28): kept days (src/bookings/availability/availability.cache.ts).
// A change makes stale only the days it touched (and one either side); searches that miss the same
// days at once compute them once, also for different but overlapping ranges; and a computation that
// started before a check found its day changed is never kept, nor given to a search after that check,
// so what a search saw booked is never offered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import {
  AvailabilityCache,
  availabilityCache,
  type Check,
  type Computed,
} from '../../../src/bookings/availability/availability.cache.ts';
import { addDays, staleDates } from '../../../src/bookings/availability/availability.answer.ts';
import { ALL_WEEK, hold, search, shop, startsOf } from '../online/helpers.ts';

/** A fake computation: each day's one slot is labelled with the computation's number; every call is recorded. */
function computer(calls: string[], gate?: Promise<void>) {
  return async (from: string, to: string): Promise<Computed> => {
    calls.push(`${from}..${to}`);
    const n = calls.length;
    if (gate) await gate;
    const days = [];
    for (let d = from; d <= to; d = addDays(d, 1))
      days.push({ date: d, slots: [{ at: 0, json: `"${n}"` }], json: `{"date":"${d}","slots":["${n}"]}` });
    return { days, validUntil: Infinity };
  };
}

/** A cache whose store 's' counts changes from snapshot 's0', and the record of its computations. */
function opened() {
  const cache = new AvailabilityCache(1 << 22);
  cache.observe('s', { snapshot: 's0', changed: null, changedDays: null }, 1, null, performance.now());
  return { cache, calls: [] as string[] };
}

/** A gate computations wait at until released. */
function gated() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  return { gate, release };
}

const NOTHING: Check = { snapshot: 's1', changed: false, changedDays: null };
const labels = (a: { days: readonly { slots: { json: string }[] }[] }) =>
  a.days.map((d) => d.slots[0].json.replaceAll('"', '')).join('');

test('a change makes stale only the days it touched and one either side; a set-up change, every day', async () => {
  const { cache, calls } = opened();
  const first = await cache.answer('s', 'k', '2026-06-01', 31, 1, computer(calls));
  assert.deepEqual(calls, ['2026-06-01..2026-06-31'.replace('06-31', '07-01')]);
  assert.equal(labels(first), '1'.repeat(31));
  // A booking on 10 June (its block ends the same day), seen by a check that counted from s0.
  cache.observe(
    's',
    { snapshot: 's1', changed: true, changedDays: [['2026-06-10', '2026-06-10']] },
    2,
    's0',
    performance.now(),
  );
  assert.equal(cache.snapshotOf('s'), 's1', 'a check from the current snapshot moves it on');
  const second = await cache.answer('s', 'k', '2026-06-01', 31, 2, computer(calls));
  assert.deepEqual(calls.slice(1), ['2026-06-09..2026-06-11'], 'only the 9th to the 11th are computed again');
  assert.equal(labels(second), '1'.repeat(8) + '222' + '1'.repeat(20));
  // Nothing changed: served whole from what is kept, as the same assembled answer.
  cache.observe('s', NOTHING, 3, 's1', performance.now());
  assert.equal(await cache.answer('s', 'k', '2026-06-01', 31, 3, computer(calls)), second);
  // Working hours changed: every day.
  cache.observe('s', { snapshot: 's2', changed: true, changedDays: null }, 4, 's1', performance.now());
  await cache.answer('s', 'k', '2026-06-01', 31, 4, computer(calls));
  assert.deepEqual(calls.slice(2), ['2026-06-01..2026-07-01']);
  const { hits, misses } = cache.stats();
  assert.deepEqual({ hits, misses }, { hits: 1, misses: 3 });
});

test('searches of overlapping ranges that miss at once compute each day once', async () => {
  const { cache, calls } = opened();
  const { gate, release } = gated();
  const a = cache.answer('s', 'k', '2026-06-01', 3, 1, computer(calls, gate));
  const b = cache.answer('s', 'k', '2026-06-02', 3, 1, computer(calls, gate));
  release();
  const [ra, rb] = await Promise.all([a, b]);
  assert.deepEqual(
    calls,
    ['2026-06-01..2026-06-03', '2026-06-04..2026-06-04'],
    'the second computes only the day the first does not',
  );
  assert.equal(labels(ra), '111');
  assert.equal(labels(rb), '112');
  assert.equal(cache.stats().answers, 4);
});

test('a computation under way when a check finds its day changed is neither shared after the check nor kept', async () => {
  const { cache, calls } = opened();
  const { gate, release } = gated();
  const before = cache.answer('s', 'k', '2026-06-01', 3, 1, computer(calls, gate));
  // A booking on the 2nd is seen while it computes; the 1st to the 3rd go stale.
  cache.observe(
    's',
    { snapshot: 's1', changed: true, changedDays: [['2026-06-02', '2026-06-02']] },
    2,
    's0',
    performance.now(),
  );
  const after = cache.answer('s', 'k', '2026-06-01', 3, 2, computer(calls));
  release();
  assert.equal(labels(await before), '111', 'the search before the check gets what it computed');
  assert.equal(labels(await after), '222', 'the search after it computes afresh');
  assert.equal(
    labels(await cache.answer('s', 'k', '2026-06-01', 3, 2, computer(calls))),
    '222',
    'and only the fresh days are kept',
  );
  assert.equal(calls.length, 2);
});

test('which days a change makes stale', () => {
  assert.deepEqual(staleDates([['2026-06-10', '2026-06-11']]), [
    '2026-06-09',
    '2026-06-10',
    '2026-06-11',
    '2026-06-12',
  ]);
  assert.deepEqual(staleDates([]), []);
  assert.equal(staleDates(null), null, 'a set-up change: every day');
  assert.equal(staleDates([['-infinity', '2026-06-10']]), null, 'an unbounded block: every day');
  assert.equal(staleDates([['2026-06-10', null as unknown as string]]), null);
  assert.equal(staleDates([['2026-01-01', '2028-12-31']]), null, 'three years of time-off: every day');
});

test('a burst of searches around bookings, through the API: every answer after a booking leaves it out', async () => {
  const t = await startTestApp({ now: '2026-06-01T08:00:00Z' });
  const w = await shop({ t, units: 1, week: ALL_WEEK([{ open: '09:00', close: '17:00' }]) });
  const DAYS = { from_date: '2026-06-01', to_date: '2026-06-03' };
  assert.equal((await search(w, DAYS)).status, 200);
  const starts = ['2026-06-02T08:00:00.000Z', '2026-06-02T10:00:00.000Z', '2026-06-02T12:00:00.000Z'];
  for (const at of starts) {
    assert.equal((await hold(w, { starts_at: at })).status, 200);
    // Eight searches at once, right after the hold: each must leave the held start out.
    const answers = await Promise.all(Array.from({ length: 8 }, () => search(w, DAYS)));
    for (const a of answers) {
      assert.equal(a.status, 200);
      assert.ok(!startsOf(a).includes(at), `${at} was held before these searches`);
    }
  }
  assert.ok((availabilityCache(t.db)?.stats().answers ?? 0) >= 1);
});
