// Availability under writes (issue 28): searches that miss the kept answer at once compute it once
// and share it, also when each of them saw the same booking (they join the generation the first one
// opened, instead of each opening its own); and a search that joins never gets an answer computed
// before its own check, so what it saw booked is never offered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { AvailabilityCache, availabilityCache, type KeptAnswer } from '../../../src/bookings/availability/availability.cache.ts';
import { ALL_WEEK, hold, search, shop, startsOf } from '../online/helpers.ts';

const answerOf = (label: string): KeptAnswer => ({ days: [{ date: label, slots: [] }], starts: new Float64Array(), computedAt: 0, validUntil: Infinity, bytes: 10, served: null });

test('searches that all saw the same change share one computation', async () => {
  const cache = new AvailabilityCache(1 << 20);
  const first = cache.observe('s1', { snapshot: 'old', changed: null }, 1, null);
  // Both asked against the generation that the change ends ('old'); the first to return opens a new one.
  const a = cache.observe('s1', { snapshot: 'snap-a', changed: true }, 2, first.gen.snapshot);
  const checkedB = performance.now();
  const b = cache.observe('s1', { snapshot: 'snap-b', changed: true }, 2, first.gen.snapshot);
  assert.equal(b.joined, true, 'the second search joins the generation the first opened');
  let computed = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const compute = async () => {
    computed++;
    await gate;
    return answerOf('shared');
  };
  const pa = cache.answer(a, 'k', 2, compute);
  const pb = cache.answer(b, 'k', 2, compute, checkedB);
  release();
  const [ra, rb] = await Promise.all([pa, pb]);
  assert.equal(computed, 1);
  assert.equal(ra, rb);
  assert.equal(cache.stats().answers, 1, 'the shared answer is kept in the store\'s generation');
});

test('a joining search never takes an answer computed before its own check', async () => {
  const cache = new AvailabilityCache(1 << 20);
  const gen = cache.observe('s1', { snapshot: 'g1', changed: null }, 1, null);
  await cache.answer(gen, 'k', 1, async () => answerOf('before'));
  // A search that asked against an older snapshot saw a change and joins g1: its check returned after
  // the kept answer was computed, so it computes afresh (and keeps the newer answer).
  const joined = cache.observe('s1', { snapshot: 'g2', changed: true }, 2, 'older');
  assert.equal(joined.joined, true);
  const answer = await cache.answer(joined, 'k', 2, async () => answerOf('after'), performance.now());
  assert.equal(answer.days[0].date, 'after');
  // A search whose check against g1 itself says nothing changed is served that newer answer.
  const same = cache.observe('s1', { snapshot: 'g3', changed: false }, 3, 'g1');
  assert.equal((await cache.answer(same, 'k', 3, async () => answerOf('again'))).days[0].date, 'after');
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
