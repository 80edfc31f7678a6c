import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  earliestStart,
  placeQueue,
  waitMinutes,
  type ModelEntry,
  type ModelUnit,
} from '../../../src/bookings/queue/wait-model.ts';

const NOW = Date.parse('2026-06-01T09:00:00Z');
const min = (m: number) => NOW + m * 60_000;
const waiting = (id: string, durationMin = 30, preferredUnitId: string | null = null): ModelEntry => ({
  id,
  status: 'waiting',
  durationMin,
  preferredUnitId,
});

test('a unit is free at the first gap long enough for the entry, walking its busy intervals from now', () => {
  const unit = {
    floor: NOW,
    busy: [
      { start: min(-30), end: min(10) },
      { start: min(30), end: min(60) },
      { start: min(70), end: min(90) },
    ],
  };
  assert.equal(earliestStart(unit, 20 * 60_000), min(10)); // fits 10..30
  assert.equal(earliestStart(unit, 25 * 60_000), min(90)); // 10..30 too short, 60..70 too short
  assert.equal(earliestStart({ floor: NOW, busy: [] }, 60_000), NOW);
});

test('overlapping busy intervals (time-off over an appointment) are walked through', () => {
  const unit = {
    floor: NOW,
    busy: [
      { start: min(0), end: min(40) },
      { start: min(20), end: min(50) },
    ],
  };
  assert.equal(earliestStart(unit, 10 * 60_000), min(50));
});

test('waiting entries go in join order to the unit that frees first; called entries are placed first', () => {
  const units: ModelUnit[] = [
    { id: 'A', busy: [{ start: min(-10), end: min(20) }] },
    { id: 'B', busy: [{ start: min(-10), end: min(40) }] },
  ];
  const entries: ModelEntry[] = [
    waiting('w1'),
    { id: 'c1', status: 'called', durationMin: 30, preferredUnitId: null },
    waiting('w2'),
  ];
  const [w1, c1, w2] = placeQueue(NOW, units, entries);
  // c1 takes A at 20 (called go first); w1 then has A at 50 or B at 40: B.
  assert.deepEqual(c1, { entryId: 'c1', position: null, unitId: 'A', start: min(20) });
  assert.deepEqual(w1, { entryId: 'w1', position: 1, unitId: 'B', start: min(40) });
  assert.deepEqual(w2, { entryId: 'w2', position: 2, unitId: 'A', start: min(50) });
});

test('a preferred unit is honoured even when another unit frees sooner', () => {
  const units: ModelUnit[] = [
    { id: 'A', busy: [] },
    { id: 'B', busy: [{ start: min(0), end: min(60) }] },
  ];
  const [p] = placeQueue(NOW, units, [waiting('p', 30, 'B')]);
  assert.equal(p.unitId, 'B');
  assert.equal(p.start, min(60));
});

test('a preferred unit that cannot seat walk-ins any more falls back to every unit', () => {
  const [p] = placeQueue(NOW, [{ id: 'A', busy: [] }], [waiting('p', 30, 'gone')]);
  assert.equal(p.unitId, 'A');
  assert.equal(p.start, NOW);
});

test('a shorter service behind a longer one never jumps into an earlier gap on the same unit', () => {
  const units: ModelUnit[] = [{ id: 'A', busy: [{ start: min(20), end: min(60) }] }];
  const [long, short] = placeQueue(NOW, units, [waiting('long', 45), waiting('short', 15)]);
  assert.equal(long.start, min(60));
  assert.equal(short.start, min(105));
});

test('no units: every entry keeps its position but has no placement', () => {
  const [a, b] = placeQueue(NOW, [], [waiting('a'), waiting('b')]);
  assert.deepEqual([a.position, a.unitId, a.start, b.position], [1, null, null, 2]);
});

test('waits are whole minutes rounded up, never negative', () => {
  assert.equal(waitMinutes(NOW, NOW), 0);
  assert.equal(waitMinutes(NOW, NOW + 30_000), 1);
  assert.equal(waitMinutes(NOW, min(45)), 45);
});

const unitIds = ['A', 'B', 'C'];
const arbUnits = fc
  .uniqueArray(fc.constantFrom(...unitIds), { minLength: 1, maxLength: 3 })
  .chain((ids) =>
    fc.tuple(
      ...ids.map((id) =>
        fc
          .array(fc.tuple(fc.integer({ min: -120, max: 600 }), fc.integer({ min: 1, max: 180 })), { maxLength: 6 })
          .map((spans): ModelUnit => ({ id, busy: spans.map(([s, d]) => ({ start: min(s), end: min(s + d) })) })),
      ),
    ),
  );
const arbEntries = fc
  .array(
    fc.record({
      status: fc.constantFrom<'waiting' | 'called'>('waiting', 'waiting', 'waiting', 'called'),
      durationMin: fc.integer({ min: 5, max: 120 }),
      preferredUnitId: fc.option(fc.constantFrom(...unitIds, 'gone'), { nil: null }),
    }),
    { maxLength: 12 },
  )
  .map((rows) => rows.map((r, i): ModelEntry => ({ id: `e${i}`, ...r })));

test('property: position 1 never waits longer than position 2 for the same unit, and nothing overlaps', () => {
  fc.assert(
    fc.property(arbUnits, arbEntries, (units, entries) => {
      const placements = placeQueue(NOW, units, entries);
      const waitingPlaced = placements.filter((p) => p.position !== null);
      for (let i = 0; i < waitingPlaced.length; i++) {
        const a = waitingPlaced[i];
        assert.equal(a.position, i + 1);
        for (const b of waitingPlaced.slice(i + 1)) {
          if (a.unitId === b.unitId)
            assert.ok(a.start! <= b.start!, `${a.entryId} starts after ${b.entryId} on ${a.unitId}`);
        }
      }
      const durations = new Map(entries.map((e) => [e.id, e.durationMin * 60_000]));
      for (const p of placements) {
        assert.ok(p.start! >= NOW);
        const entry = entries.find((e) => e.id === p.entryId)!;
        if (entry.preferredUnitId && units.some((u) => u.id === entry.preferredUnitId))
          assert.equal(p.unitId, entry.preferredUnitId);
        const end = p.start! + durations.get(p.entryId)!;
        const unit = units.find((u) => u.id === p.unitId)!;
        for (const b of unit.busy)
          assert.ok(end <= b.start || p.start! >= b.end, `${p.entryId} overlaps a busy interval`);
        for (const q of placements) {
          if (q === p || q.unitId !== p.unitId) continue;
          const qEnd = q.start! + durations.get(q.entryId)!;
          assert.ok(end <= q.start! || p.start! >= qEnd, `${p.entryId} overlaps ${q.entryId}`);
        }
      }
    }),
    { numRuns: 300 },
  );
});
