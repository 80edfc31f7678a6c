// Property: over every pair of clock times, a day window is accepted exactly when both are HH:MM
// (00:00-23:59) and close is after open; any string that is not HH:MM is refused by the schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { validatorCompiler } from '../../../src/platform/http/validation.ts';
import { AppError } from '../../../src/platform/errors/app-error.ts';
import { assertWeekWindows, DAYS, Week } from '../../../src/bookings/service-periods/week.ts';

const validate = validatorCompiler({ schema: Week, httpPart: 'body', method: 'POST', url: '/' }) as unknown as (
  v: unknown,
) => boolean;
const pad = (n: number) => String(n).padStart(2, '0');
const time = fc.record({ h: fc.integer({ min: 0, max: 23 }), m: fc.integer({ min: 0, max: 59 }) });

function accepted(week: unknown): boolean {
  if (!validate(week)) return false;
  try {
    assertWeekWindows(week as Week);
    return true;
  } catch (err) {
    assert.ok(err instanceof AppError && err.code === 'INVALID_WEEK');
    return false;
  }
}

test('a window is accepted exactly when close is after open', () => {
  fc.assert(
    fc.property(fc.constantFrom(...DAYS), time, time, (day, open, close) => {
      const week = { [day]: { open: `${pad(open.h)}:${pad(open.m)}`, close: `${pad(close.h)}:${pad(close.m)}` } };
      assert.equal(accepted(week), close.h * 60 + close.m > open.h * 60 + open.m);
    }),
    { numRuns: 2000 },
  );
});

test('a time that is not HH:MM from 00:00 to 23:59 is refused', () => {
  const notHhmm = fc.string({ maxLength: 8 }).filter((s) => !/^([01][0-9]|2[0-3]):[0-5][0-9]$/.test(s));
  fc.assert(
    fc.property(notHhmm, (bad) => {
      assert.equal(accepted({ monday: { open: bad, close: '23:59' } }), false);
      assert.equal(accepted({ monday: { open: '00:00', close: bad } }), false);
    }),
    { numRuns: 2000 },
  );
});

test('any key other than the seven day names is refused', () => {
  const notADay = fc
    .string({ minLength: 1, maxLength: 12 })
    .filter((k) => !(DAYS as readonly string[]).includes(k) && k !== '__proto__');
  fc.assert(
    fc.property(notADay, (key) => {
      assert.equal(accepted({ [key]: { open: '09:00', close: '17:00' } }), false);
    }),
    { numRuns: 1000 },
  );
});
