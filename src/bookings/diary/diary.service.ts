// The diary: for a store-local date range, every active bookable unit (or one) with the
// appointments, live holds and time-off that overlap it.
import type { MerchantContext } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import { outstandingOf } from '../appointments/appointment-money.ts';
import { diaryAppointmentById, diaryAppointments, diaryHolds, diaryTimeOff, diaryUnits, type DiaryAppointmentRow } from './diary.repository.ts';
import { MAX_DIARY_DAYS, type AppointmentDetail, type DiaryAppointment, type DiaryQuery, type DiaryResponse } from './diary.schemas.ts';
import { storeDayRange } from './store-days.ts';

function byUnit<T extends { unit_id: string }>(rows: T[]): Map<string, Omit<T, 'unit_id'>[]> {
  const map = new Map<string, Omit<T, 'unit_id'>[]>();
  for (const { unit_id, ...item } of rows) {
    const list = map.get(unit_id) ?? [];
    list.push(item);
    map.set(unit_id, list);
  }
  return map;
}

/** The diary appointment presenter: balance_pence has one definition, shared with create and settle. */
export function withBalance<R extends DiaryAppointmentRow>({ settled_pence, ...row }: R): Omit<R, 'settled_pence'> & DiaryAppointment {
  return { ...row, balance_pence: outstandingOf({ ...row, settled_pence }) } as Omit<R, 'settled_pence'> & DiaryAppointment;
}

/** GET /api/v1/bookings/appointments/{appointmentId}: one appointment with its diary fields; another store's reads as missing. */
export async function readAppointment(ctx: MerchantContext, appointmentId: string): Promise<{ appointment: AppointmentDetail }> {
  const row = await diaryAppointmentById(ctx.db, ctx.actor.storeId, appointmentId);
  if (!row) throw notFound('Appointment');
  return { appointment: withBalance(row) };
}

/** The last day a diary may show: its exclusive end, the next midnight, is still in year 9999. */
const LAST_DIARY_DATE = '9999-12-30';

export async function readDiary(ctx: MerchantContext, query: DiaryQuery): Promise<DiaryResponse> {
  const storeId = ctx.actor.storeId;
  // Calendar dates compare correctly as YYYY-MM-DD strings.
  if (query.to_date < query.from_date) throw new AppError('INVALID_TIME_RANGE', 'to_date must not be before from_date');
  // The range ends at 00:00 the day after to_date, which must still be a four-digit-year instant.
  if (query.to_date > LAST_DIARY_DATE) throw new AppError('VALIDATION_FAILED', `query.to_date must be ${LAST_DIARY_DATE} or earlier`);

  // The units do not depend on the range: both are read at once.
  const [{ store, range }, units] = await Promise.all([
    storeDayRange(ctx.db, storeId, query.from_date, query.to_date),
    diaryUnits(ctx.db, storeId, query.unit_id ?? null),
  ]);
  if (range.days > MAX_DIARY_DAYS) {
    throw new AppError('RANGE_TOO_LONG', `The diary covers at most ${MAX_DIARY_DAYS} days at a time`);
  }
  if (query.unit_id && units.length === 0) throw notFound('Unit');
  const ids = units.map((u) => u.id);
  const [appointments, holds, timeOff] = await Promise.all([
    diaryAppointments(ctx.db, storeId, ids, range.from, range.to, query.include_cancelled ?? false),
    diaryHolds(ctx.db, storeId, ids, range.from, range.to, ctx.clock.now()),
    diaryTimeOff(ctx.db, storeId, ids, range.from, range.to),
  ]);
  const a = byUnit(appointments.map(withBalance));
  const h = byUnit(holds);
  const t = byUnit(timeOff);
  return {
    store_id: storeId,
    timezone: store.timezone,
    from: range.from,
    to: range.to,
    units: units.map((unit) => ({
      unit,
      appointments: a.get(unit.id) ?? [],
      holds: h.get(unit.id) ?? [],
      time_off: t.get(unit.id) ?? [],
    })),
  };
}
