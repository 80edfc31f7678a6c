// The diary: for a store-local date range, every active bookable unit (or one) with the
// appointments, live holds and time-off that overlap it. The database builds the answer in one
// statement (diary.repository.ts); it is sent as the text it comes as.
import type { MerchantContext } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import { diaryAppointmentById, readDiaryAnswer } from './diary.repository.ts';
import type { BookedBy } from './booked-by.repository.ts';
import { MAX_DIARY_DAYS, type AppointmentDetail, type DiaryQuery } from './diary.schemas.ts';
import { readHandle } from '../../platform/db/read-routing.plugin.ts';

/**
 * GET /api/v1/bookings/appointments/{appointmentId}: one appointment with its diary fields, and beside
 * it (not in it: the spec closes the appointment's fields) who booked it; another store's reads as missing.
 */
export async function readAppointment(
  ctx: MerchantContext,
  appointmentId: string,
): Promise<{ appointment: AppointmentDetail; booked_by: BookedBy | null }> {
  const db = await readHandle(ctx); // the replica when it has every write this store made
  const found = await diaryAppointmentById(db, ctx.actor.storeId, appointmentId);
  if (!found) throw notFound('Appointment');
  return found;
}

/** The last day a diary may show: its exclusive end, the next midnight, is still in year 9999. */
const LAST_DIARY_DATE = '9999-12-30';

/** The diary as JSON text (a DiaryResponse). Refusals keep their order: dates, store, range, unit. */
export async function readDiary(ctx: MerchantContext, query: DiaryQuery): Promise<string> {
  // Calendar dates compare correctly as YYYY-MM-DD strings.
  if (query.to_date < query.from_date) throw new AppError('INVALID_TIME_RANGE', 'to_date must not be before from_date');
  // The range ends at 00:00 the day after to_date, which must still be a four-digit-year instant.
  if (query.to_date > LAST_DIARY_DATE)
    throw new AppError('VALIDATION_FAILED', `query.to_date must be ${LAST_DIARY_DATE} or earlier`);

  const db = await readHandle(ctx); // the replica when it has every write this store made
  const answer = await readDiaryAnswer(db, {
    storeId: ctx.actor.storeId,
    fromDate: query.from_date,
    toDate: query.to_date,
    unitId: query.unit_id ?? null,
    includeCancelled: query.include_cancelled ?? false,
    now: ctx.clock.now(),
    maxDays: MAX_DIARY_DAYS,
  });
  if (!answer) throw notFound('Store');
  if (answer.body === null)
    throw new AppError('RANGE_TOO_LONG', `The diary covers at most ${MAX_DIARY_DAYS} days at a time`);
  if (query.unit_id && answer.units === 0) throw notFound('Unit');
  return answer.body;
}
