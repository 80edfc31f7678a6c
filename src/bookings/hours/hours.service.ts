// Working hours of a unit: read and replace. What a schema cannot say (close after open, no
// overlapping intervals in a day, one exception per date) is checked here as INVALID_HOURS.
import { inTransaction, type MerchantContext } from '../../platform/context.ts';
import { audit } from '../../platform/audit.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import { lockUnits } from '../booking-authority.ts';
import * as repo from './hours.repository.ts';
import { DAYS, type HoursResponse, type Interval, type PutHoursBody } from './hours.schemas.ts';

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Sorted by opening; throws INVALID_HOURS naming `where` for a backwards or overlapping interval. */
function checked(intervals: Interval[], where: string): Interval[] {
  const sorted = [...intervals].sort((a, b) => minutes(a.open) - minutes(b.open));
  sorted.forEach((iv, i) => {
    if (minutes(iv.close) <= minutes(iv.open))
      throw new AppError('INVALID_HOURS', `${where}: ${iv.open}-${iv.close} must close after it opens`);
    const prev = sorted[i - 1];
    if (prev && minutes(iv.open) < minutes(prev.close)) {
      throw new AppError('INVALID_HOURS', `${where}: ${prev.open}-${prev.close} and ${iv.open}-${iv.close} overlap`);
    }
  });
  return sorted;
}

function present(unitId: string, rows: repo.HoursRows): HoursResponse {
  const week = Object.fromEntries(DAYS.map((d) => [d, [] as Interval[]])) as HoursResponse['week'];
  for (const w of rows.week) week[DAYS[w.weekday]].push({ open: w.open, close: w.close });
  const exceptions = new Map<string, Interval[]>();
  for (const e of rows.exceptions) {
    const list = exceptions.get(e.date) ?? [];
    if (e.open && e.close) list.push({ open: e.open, close: e.close });
    exceptions.set(e.date, list);
  }
  return {
    unit_id: unitId,
    hours_set: rows.hours_set_at !== null,
    week,
    exceptions: [...exceptions].map(([date, intervals]) => ({ date, intervals })),
  };
}

export async function getHours(ctx: MerchantContext, unitId: string): Promise<HoursResponse> {
  const rows = await repo.readHours(ctx.db, ctx.actor.storeId, unitId);
  if (!rows) throw notFound('Unit');
  return present(unitId, rows);
}

export async function putHours(ctx: MerchantContext, unitId: string, body: PutHoursBody): Promise<HoursResponse> {
  const storeId = ctx.actor.storeId;
  const week = DAYS.flatMap((day, weekday) =>
    checked(body.week[day] ?? [], `week.${day}`).map((iv) => ({ weekday, open: iv.open, close: iv.close })),
  );
  const seen = new Set<string>();
  const exceptions = (body.exceptions ?? []).flatMap(
    (e): Array<{ date: string; open: string | null; close: string | null }> => {
      if (seen.has(e.date)) throw new AppError('INVALID_HOURS', `exceptions: ${e.date} is listed twice`);
      seen.add(e.date);
      const intervals = checked(e.intervals, `exceptions ${e.date}`);
      // A date with no intervals is one row without times: closed that day.
      return intervals.length
        ? intervals.map((iv) => ({ date: e.date, open: iv.open, close: iv.close }))
        : [{ date: e.date, open: null, close: null }];
    },
  );
  return inTransaction(ctx, async (tx) => {
    // Serialised with holds and bookings on the unit: a hold is decided on the hours in force.
    await lockUnits(tx, storeId, [unitId]);
    await repo.replaceHours(tx, storeId, unitId, week, exceptions, ctx.clock.now());
    await audit(tx, ctx, {
      action: 'unit.hours_set',
      entity: 'unit',
      entityId: unitId,
      details: { intervals: week.length, exceptions: seen.size },
    });
    const rows = await repo.readHours(tx, storeId, unitId);
    return present(unitId, rows!);
  });
}
