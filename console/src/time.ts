// Store-local time without a library: the store's IANA zone through Intl. The diary is drawn as a
// line of instants from the day's start to its end (as the API returns them), so a daylight-saving
// day is 23 or 25 hours tall by construction, and each hour's label is that instant in the store zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

function parts(instant: number, tz: string) {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(instant)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out as { year: number; month: number; day: number; hour: number; minute: number; second: number };
}

/** Offset of the zone from UTC at an instant, in milliseconds. */
function offset(instant: number, tz: string): number {
  const p = parts(instant, tz);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(instant / 1000) * 1000;
}

/** The instant of a store-local wall time (a time that does not exist moves forward, as the clock does). */
export function zonedInstant(date: string, hour: number, minute: number, tz: string): number {
  const [y, m, d] = date.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d, hour, minute);
  let guess = wall - offset(wall, tz);
  guess = wall - offset(guess, tz);
  return guess;
}

export function hhmm(instant: number | string, tz: string): string {
  const p = parts(typeof instant === 'string' ? Date.parse(instant) : instant, tz);
  return `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
}

export function localDate(instant: number, tz: string): string {
  const p = parts(instant, tz);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export function weekday(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
}

/** Hour marks of a store-local day [from, to): one per hour actually lived (23 or 25 on a DST day). */
export function hourMarks(from: number, to: number, tz: string): Array<{ at: number; label: string }> {
  const marks = [];
  for (let at = from; at < to; at += 3_600_000) marks.push({ at, label: hhmm(at, tz) });
  return marks;
}

export function iso(instant: number): string {
  return new Date(instant).toISOString();
}

export function money(pence: number, currency: string): string {
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(pence / 100);
}
