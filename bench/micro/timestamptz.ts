// Micro-benchmark behind a finding in docs/performance/history/round-1.md: the timestamptz parser the pg adapter
// installs (src/platform/db/value-parsers.ts) was the top self-time function while the diary was
// under load. This compares it with a slicing parser for the one shape a UTC session produces
// ("YYYY-MM-DD HH:MM:SS[.ffffff]+00"), falling back to the general parser for anything else.
// Run: ./node_modules/.bin/node bench/micro/timestamptz.ts
import assert from 'node:assert/strict';
import { parseTimestamptz } from '../../src/platform/db/value-parsers.ts';

const UTC_SHAPE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?\+00$/;

export function parseTimestamptzFast(value: string): string {
  if (!UTC_SHAPE.test(value)) return parseTimestamptz(value);
  const dot = value.indexOf('.', 19);
  const millis = dot === -1 ? '000' : (value.slice(dot + 1, value.length - 3) + '00').slice(0, 3);
  return `${value.slice(0, 10)}T${value.slice(11, 19)}.${millis}Z`;
}

const samples = [
  '2026-03-29 01:30:00+00',
  '2026-03-29 01:30:00.123456+00',
  '2026-11-22 05:33:25.4+00',
  '1999-12-31 23:59:59.999+00',
  '2026-03-29 01:30:00+01',
  'infinity',
  '0099-01-01 00:00:00+00',
];
for (const s of samples) assert.equal(parseTimestamptzFast(s), parseTimestamptz(s), s);

function time(fn: (s: string) => string): number {
  const n = 1_000_000;
  let sink = 0;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) sink += fn(samples[i % 4]).length;
  const ns = ((performance.now() - t0) * 1e6) / n;
  if (sink === 0) console.log('');
  return ns;
}
time(parseTimestamptz);
time(parseTimestamptzFast);
console.log(`current parser: ${time(parseTimestamptz).toFixed(0)} ns per value`);
console.log(`slicing parser: ${time(parseTimestamptzFast).toFixed(0)} ns per value (same output on every sample)`);
