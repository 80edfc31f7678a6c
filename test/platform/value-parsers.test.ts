import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTimestamptz } from '../../src/platform/db/value-parsers.ts';

test('instants from a UTC session become ISO strings with milliseconds', () => {
  const cases: Array<[string, string]> = [
    ['2026-03-29 01:30:00+00', '2026-03-29T01:30:00.000Z'],
    ['2026-03-29 01:30:00.123456+00', '2026-03-29T01:30:00.123Z'],
    ['2026-11-22 05:33:25.4+00', '2026-11-22T05:33:25.400Z'],
    ['1999-12-31 23:59:59.999+00', '1999-12-31T23:59:59.999Z'],
    // Not the UTC shape: the general parser normalises the offset.
    ['2026-03-29 01:30:00+01', '2026-03-29T00:30:00.000Z'],
    ['2026-03-29 01:30:00.5+05:30', '2026-03-28T20:00:00.500Z'],
  ];
  for (const [input, expected] of cases) assert.equal(parseTimestamptz(input), expected, input);
});

test('a value no Date can hold is returned as PostgreSQL wrote it', () => {
  assert.equal(parseTimestamptz('infinity'), 'infinity');
});
