// Type parsers shared by both adapters so that a row looks the same on either engine.
// Sessions run in UTC, so timestamptz text always ends in +00.

export const OID = {
  int8: 20,
  numeric: 1700,
  date: 1082,
  timestamp: 1114,
  timestamptz: 1184,
} as const;

// The one shape a UTC session produces, sliced without building a Date: this parser runs for
// every instant of every row, and was the top CPU cost of the diary under load (docs/performance/history/round-1.md).
const UTC_SHAPE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?\+00$/;

export function parseTimestamptz(value: string): string {
  if (UTC_SHAPE.test(value)) {
    const dot = value.indexOf('.', 19);
    const millis = dot === -1 ? '000' : (value.slice(dot + 1, value.length - 3) + '00').slice(0, 3);
    return `${value.slice(0, 10)}T${value.slice(11, 19)}.${millis}Z`;
  }
  return parseTimestamptzGeneral(value);
}

function parseTimestamptzGeneral(value: string): string {
  // "2026-03-29 01:30:00.123456+00" -> "2026-03-29T01:30:00.123Z"
  const iso = value
    .replace(' ', 'T')
    .replace(/([+-]\d\d)$/, '$1:00')
    .replace(/([+-]\d\d)(\d\d)$/, '$1:$2');
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

export function parseTimestamp(value: string): string {
  return parseTimestamptz(value + '+00');
}

export const valueParsers: Record<number, (value: string) => unknown> = {
  [OID.int8]: (v) => Number(v),
  [OID.numeric]: (v) => Number(v),
  [OID.date]: (v) => v,
  [OID.timestamp]: parseTimestamp,
  [OID.timestamptz]: parseTimestamptz,
};
