// Times in the store's zone, labelled with it, and in the browser's zone beside them when it differs.
// Intl only (no date library): an instant formatted with timeZone is the wall time that was booked,
// on a daylight-saving day too (01:30 happens twice on 2027-10-31 in London: "01:30 BST", "01:30 GMT").
// Each formatter is made once: making one costs far more than formatting with it (measured in a
// Chromium trace at 4x CPU slowdown, issue 41: the browser's zone asked for on every render was the
// page's largest piece of script).
const cache = new Map<string, Intl.DateTimeFormat>();
function fmt(tz: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const k = tz + JSON.stringify(opts);
  let f = cache.get(k);
  if (!f) cache.set(k, (f = new Intl.DateTimeFormat('en-GB', { timeZone: tz, ...opts })));
  return f;
}

let zone: string | null = null;
export const browserZone = (): string => (zone ??= Intl.DateTimeFormat().resolvedOptions().timeZone);

/** "10:30" on the zone's wall clock. */
export function clock(instant: string | number, tz: string): string {
  return fmt(tz, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(instant));
}

/** The zone's short name at that instant ("GMT", "BST", "GMT-5"). */
export function zoneName(instant: string | number, tz: string): string {
  return (
    fmt(tz, { timeZoneName: 'short' })
      .formatToParts(new Date(instant))
      .find((p) => p.type === 'timeZoneName')?.value ?? tz
  );
}

// The first screen formats without Intl: a page's first Intl formatter of a kind costs 30-400 ms of
// main thread on this host before any slowdown (ICU's data), the page's longest task. Dates of the
// calendar are named from two tables (en-GB, as Intl writes them: test/booking-page/time.test.ts
// compares them); a slot's wall time is the API's local_time; the zone's short name comes with the
// page (zoneNames, from the server); the browser's own clock is Date's. Intl stays for what follows a
// choice (the held time's long sentence) and for a currency or zone the tables do not know.
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
// en-GB abbreviates September to four letters.
const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];
function calendarDay(date: string) {
  const [y, m, d] = date.split('-').map(Number);
  return { y, m: MONTHS[m - 1], mon: SHORT_MONTHS[m - 1], d, w: WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()] };
}

/** "Wednesday, 10 March 2027" for a store-local date (YYYY-MM-DD). */
export function longDate(date: string): string {
  const c = calendarDay(date);
  return `${c.w}, ${c.d} ${c.m} ${c.y}`;
}

/** "Wednesday 10 March" for a store-local date: one line on a phone. */
export function dayTitle(date: string): string {
  const c = calendarDay(date);
  return `${c.w} ${c.d} ${c.m}`;
}

/** "Wed 10 Mar" for a store-local date. */
export function shortDate(date: string): string {
  const c = calendarDay(date);
  return `${c.w.slice(0, 3)} ${c.d} ${c.mon}`;
}

const two = (n: number) => String(n).padStart(2, '0');

/** Minutes the store's clock is ahead of UTC at a slot: its local date and wall time against its instant. */
export function slotOffset(date: string, localTime: string, instant: string): number {
  const [y, m, d] = date.split('-').map(Number);
  const [h, min] = localTime.split(':').map(Number);
  return Math.round((Date.UTC(y, m - 1, d, h, min) - Date.parse(instant)) / 60_000);
}

/** Minutes the browser's clock is ahead of UTC at an instant. */
export const browserOffset = (instant: string | number): number => -new Date(instant).getTimezoneOffset();

/** "05:00" on the browser's own clock. */
export const browserClock = (instant: string | number): string => {
  const t = new Date(instant);
  return `${two(t.getHours())}:${two(t.getMinutes())}`;
};

// The store zone's short names by offset in minutes ({"0": "GMT", "60": "BST"}), rendered into the page
// by the server for the coming year (src/booking-page/page-html.ts).
let zoneNames: Record<string, string> = {};
export function setZoneNames(names: Record<string, string> | undefined) {
  zoneNames = names ?? {};
}

/** The store zone's short name at a slot whose offset is known ("GMT", "BST"). */
export function zoneAt(offset: number, instant: string, tz: string): string {
  return zoneNames[String(offset)] ?? zoneName(instant, tz);
}

/** The store-local date of an instant. */
export function dateIn(instant: string | number, tz: string): string {
  const p = fmt(tz, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(instant));
  const v = (t: string) => p.find((x) => x.type === t)?.value ?? '';
  return `${v('year')}-${v('month')}-${v('day')}`;
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** "Wednesday 10 March 2027, 10:30 GMT (Europe/London)" and, when the browser is elsewhere, its time too. */
export function when(instant: string, tz: string): { store: string; local: string | null } {
  const store = `${longDate(dateIn(instant, tz))}, ${clock(instant, tz)} ${zoneName(instant, tz)} (${tz})`;
  const here = browserZone();
  if (here === tz) return { store, local: null };
  return { store, local: `${longDate(dateIn(instant, here))}, ${clock(instant, here)} your time (${here})` };
}

const moneyFormats = new Map<string, Intl.NumberFormat>();
const SYMBOLS: Record<string, string> = { GBP: '£', EUR: '€' };
export function money(pence: number, currency: string): string {
  const symbol = SYMBOLS[currency];
  if (symbol && Number.isSafeInteger(pence)) {
    const [whole, part] = (Math.abs(pence) / 100).toFixed(2).split('.');
    return `${pence < 0 ? '-' : ''}${symbol}${whole.replace(/\B(?=(\d{3})+$)/g, ',')}.${part}`;
  }
  let f = moneyFormats.get(currency);
  if (!f) moneyFormats.set(currency, (f = new Intl.NumberFormat('en-GB', { style: 'currency', currency })));
  return f.format(pence / 100);
}

export function minutes(n: number): string {
  if (n < 60) return `${n} min`;
  const h = Math.floor(n / 60);
  return n % 60 ? `${h} h ${n % 60} min` : `${h} h`;
}
