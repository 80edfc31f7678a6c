// Times in the store's zone, labelled with it, and in the browser's zone beside them when it differs.
// Intl only (no date library): an instant formatted with timeZone is the wall time that was booked,
// on a daylight-saving day too (01:30 happens twice on 2027-10-31 in London: "01:30 BST", "01:30 GMT").
const cache = new Map<string, Intl.DateTimeFormat>();
function fmt(tz: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const k = tz + JSON.stringify(opts);
  let f = cache.get(k);
  if (!f) cache.set(k, (f = new Intl.DateTimeFormat('en-GB', { timeZone: tz, ...opts })));
  return f;
}

export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** "10:30" on the zone's wall clock. */
export function clock(instant: string | number, tz: string): string {
  return fmt(tz, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(instant));
}

/** The zone's short name at that instant ("GMT", "BST", "GMT-5"). */
export function zoneName(instant: string | number, tz: string): string {
  return fmt(tz, { timeZoneName: 'short' }).formatToParts(new Date(instant)).find((p) => p.type === 'timeZoneName')?.value ?? tz;
}

/** "Wednesday 10 March 2027" for a store-local date (YYYY-MM-DD). */
export function longDate(date: string): string {
  return fmt('UTC', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(`${date}T12:00:00Z`));
}

/** "Wednesday 10 March" for a store-local date: one line on a phone. */
export function dayTitle(date: string): string {
  return fmt('UTC', { weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(`${date}T12:00:00Z`));
}

/** "Wed 10 Mar" for a store-local date. */
export function shortDate(date: string): string {
  return fmt('UTC', { weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(`${date}T12:00:00Z`));
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

export function money(pence: number, currency: string): string {
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(pence / 100);
}

export function minutes(n: number): string {
  if (n < 60) return `${n} min`;
  const h = Math.floor(n / 60);
  return n % 60 ? `${h} h ${n % 60} min` : `${h} h`;
}
