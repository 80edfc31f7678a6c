// Class occurrences: scheduling one or a weekly run (bbo_class_schedule), cancelling one
// (bbo_class_occurrence_cancel), an occurrence's own capacity (bbo_class_occurrence_capacity), each one
// statement (db/functions/classes.sql, class-*.sql); the timetable and the roster are reads.
import type { MerchantContext } from '../platform/context.ts';
import { PG, pgCode, pgConstraint } from '../platform/db/pg-errors.ts';
import { AppError, notFound } from '../platform/errors/app-error.ts';
import { oneStatementWrite } from '../platform/one-statement.ts';
import * as repo from './occurrences.repository.ts';
import type { ClassBookingRecord } from './class-bookings.schemas.ts';
import { classOccurrenceCancel, classOccurrenceCapacity, classSchedule, type ClassSchedule } from './classes.writes.ts';
import {
  MAX_TIMETABLE_DAYS,
  type CreateOccurrenceBody,
  type Occurrence,
  type ScheduleBody,
  type TimetableQuery,
} from './occurrences.schemas.ts';

/** The occupancy constraint refusing a class: the instructor's unit has an appointment (or a class) then. */
function asTaken(err: unknown): never {
  if (pgCode(err) === PG.exclusionViolation && pgConstraint(err) === 'unit_occupancy_no_overlap') {
    throw new AppError('SLOT_TAKEN', "The instructor's unit is already booked for part of that time");
  }
  throw err;
}

function scheduleRequest(
  ctx: MerchantContext,
  classId: string,
  body: CreateOccurrenceBody,
  weeks: number,
): ClassSchedule {
  return {
    store_id: ctx.actor.storeId,
    class_id: classId,
    starts_at: new Date(body.starts_at).toISOString(),
    weeks,
    instructor_unit_id: body.instructor_unit_id ?? null,
    capacity: body.capacity ?? null,
  };
}

export async function createOccurrence(
  ctx: MerchantContext,
  classId: string,
  body: CreateOccurrenceBody,
): Promise<{ occurrence: Occurrence }> {
  const res = await oneStatementWrite(ctx, classSchedule, scheduleRequest(ctx, classId, body, 1), {
    mapError: asTaken,
  });
  return { occurrence: res.occurrences[0] };
}

/** A weekly run: `weeks` occurrences at the same store-local time, all or none. */
export async function scheduleWeekly(
  ctx: MerchantContext,
  classId: string,
  body: ScheduleBody,
): Promise<{ occurrences: Occurrence[] }> {
  return oneStatementWrite(ctx, classSchedule, scheduleRequest(ctx, classId, body, body.weeks), { mapError: asTaken });
}

export async function cancelOccurrence(
  ctx: MerchantContext,
  occurrenceId: string,
): Promise<{ occurrence: Occurrence }> {
  return oneStatementWrite(ctx, classOccurrenceCancel, { store_id: ctx.actor.storeId, occurrence_id: occurrenceId });
}

export async function setOccurrenceCapacity(
  ctx: MerchantContext,
  occurrenceId: string,
  capacity: number | null,
): Promise<{ occurrence: Occurrence }> {
  return oneStatementWrite(ctx, classOccurrenceCapacity, {
    store_id: ctx.actor.storeId,
    occurrence_id: occurrenceId,
    capacity,
  });
}

export async function listOccurrences(
  ctx: MerchantContext,
  query: TimetableQuery,
): Promise<{ occurrences: Occurrence[] }> {
  if (query.to < query.from) throw new AppError('INVALID_TIME_RANGE', 'to must not be before from');
  const days = (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 + 1;
  if (days > MAX_TIMETABLE_DAYS)
    throw new AppError('RANGE_TOO_LONG', `The timetable covers at most ${MAX_TIMETABLE_DAYS} days at a time`);
  const occurrences = await repo.timetable(ctx.db, ctx.actor.storeId, {
    from: query.from,
    to: query.to,
    classId: query.class_id ?? null,
    includeCancelled: query.include_cancelled ?? false,
  });
  return { occurrences };
}

export async function getRoster(
  ctx: MerchantContext,
  occurrenceId: string,
): Promise<{ occurrence: Occurrence; bookings: ClassBookingRecord[] }> {
  const [occurrence, bookings] = await Promise.all([
    repo.findOccurrence(ctx.db, ctx.actor.storeId, occurrenceId),
    repo.roster(ctx.db, ctx.actor.storeId, occurrenceId),
  ]);
  if (!occurrence) throw notFound('Occurrence');
  return { occurrence, bookings };
}
