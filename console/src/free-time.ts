// Where "New booking" opens: the first free stretch of the day, unit by unit in diary order, rather
// than 09:00 on the first unit whether or not it is taken. Free means no live appointment, hold or
// time off overlaps it; the merchant can still change the time in the dialog.
import { zonedInstant } from './time.ts';

interface Busy {
  starts_at: string;
  ends_at: string;
}
export interface UnitDay {
  unit: { id: string };
  appointments: Busy[];
  holds: Busy[];
  time_off: Busy[];
}

const STEP_MIN = 15;

/**
 * The first start (from 09:00, or the next quarter hour after `now` on today) at which `minutes` are
 * free on a unit, looking until 21:00; null when the day is full everywhere.
 */
export function firstFreeStart(
  units: UnitDay[],
  date: string,
  tz: string,
  now: number,
  minutes = 30,
): { unitId: string; startsAt: number } | null {
  const open = zonedInstant(date, 9, 0, tz);
  const close = zonedInstant(date, 21, 0, tz);
  const step = STEP_MIN * 60_000;
  const from = now > open ? Math.ceil(now / step) * step : open;
  for (const u of units) {
    const busy = [...u.appointments, ...u.holds, ...u.time_off].map(
      (b) => [Date.parse(b.starts_at), Date.parse(b.ends_at)] as const,
    );
    for (let start = from; start + minutes * 60_000 <= close; start += step) {
      const end = start + minutes * 60_000;
      if (busy.every(([s, e]) => e <= start || s >= end)) return { unitId: u.unit.id, startsAt: start };
    }
  }
  return null;
}
