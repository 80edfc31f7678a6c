// "New booking" opens at a free time, not at 09:00 on the first unit when that is taken (issue 26).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstFreeStart, type UnitDay } from '../../console/src/free-time.ts';

const day = (
  id: string,
  appointments: Array<[string, string]> = [],
  holds: Array<[string, string]> = [],
  timeOff: Array<[string, string]> = [],
): UnitDay => {
  const span = ([s, e]: [string, string]) => ({
    starts_at: `2027-03-10T${s}:00.000Z`,
    ends_at: `2027-03-10T${e}:00.000Z`,
  });
  return { unit: { id }, appointments: appointments.map(span), holds: holds.map(span), time_off: timeOff.map(span) };
};
const at = (hhmm: string, date = '2027-03-10') => Date.parse(`${date}T${hhmm}:00.000Z`); // London is on GMT in March
const early = at('06:00');

test('opens at 09:00 on the first unit when it is free', () => {
  assert.deepEqual(firstFreeStart([day('a'), day('b')], '2027-03-10', 'Europe/London', early), {
    unitId: 'a',
    startsAt: at('09:00'),
  });
});

test('skips a taken 09:00 to the first free half hour on the same unit', () => {
  const got = firstFreeStart(
    [day('a', [['09:00', '09:45']], [['09:45', '10:00']]), day('b')],
    '2027-03-10',
    'Europe/London',
    early,
  );
  assert.deepEqual(got, { unitId: 'a', startsAt: at('10:00') });
});

test('a gap shorter than the length is not free; time off counts as taken', () => {
  const got = firstFreeStart(
    [
      day('a', [
        ['09:00', '09:15'],
        ['09:30', '21:00'],
      ]),
      day('b', [], [], [['09:00', '12:00']]),
    ],
    '2027-03-10',
    'Europe/London',
    early,
  );
  assert.deepEqual(got, { unitId: 'b', startsAt: at('12:00') });
});

test('on today, not before now (rounded up to the quarter hour)', () => {
  assert.deepEqual(firstFreeStart([day('a')], '2027-03-10', 'Europe/London', at('13:07')), {
    unitId: 'a',
    startsAt: at('13:15'),
  });
});

test('store-local: 09:00 in London on a summer day is 08:00 UTC', () => {
  assert.deepEqual(firstFreeStart([day('a')], '2027-07-01', 'Europe/London', early), {
    unitId: 'a',
    startsAt: at('08:00', '2027-07-01'),
  });
});

test('a full day everywhere answers null', () => {
  assert.equal(firstFreeStart([day('a', [['00:00', '23:59']])], '2027-03-10', 'Europe/London', early), null);
});
