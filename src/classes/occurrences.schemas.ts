// Request and response schemas of class occurrences: scheduling, the timetable read, cancelling,
// an occurrence's own capacity and its roster.
import { Type, type Static } from 'typebox';
import { Instant, Nullable, NullableInstant, NullableString, StoreIdField, Uuid } from '../platform/http/schemas.ts';
import { ClassBookingRecord } from './class-bookings.schemas.ts';

/** Longest range one timetable read may cover, in days (as the diary's). */
export const MAX_TIMETABLE_DAYS = 62;
/** How many weeks ahead one weekly schedule may create (a year). */
export const MAX_WEEKS = 52;

export const Occurrence = Type.Object({
  id: Uuid,
  class_id: Uuid,
  name: Type.String(),
  category: NullableString,
  starts_at: Instant,
  ends_at: Instant,
  instructor_unit_id: Nullable(Uuid),
  capacity: Type.Integer({ description: "Its own capacity, else the class's" }),
  booked: Type.Integer({ description: 'Bookings confirmed or attended' }),
  offered: Type.Integer({ description: 'Seats offered and not yet accepted (promotion_pending)' }),
  waitlisted: Type.Integer(),
  seats_left: Type.Integer({ description: 'capacity - booked - offered, never below 0' }),
  waitlist_mode: Type.String({ enum: ['auto', 'offer'] }),
  cancelled: Type.Boolean(),
  cancelled_at: NullableInstant,
});
export type Occurrence = Static<typeof Occurrence>;

export const ClassIdParams = Type.Object({ classId: Uuid }, { additionalProperties: false });
export const OccurrenceParams = Type.Object({ occurrenceId: Uuid }, { additionalProperties: false });

const occurrenceFields = {
  store_id: Type.Optional(StoreIdField),
  starts_at: Type.String({ format: 'date-time', description: 'The start (in the future)' }),
  instructor_unit_id: Type.Optional(Nullable(Uuid)),
  capacity: Type.Optional(
    Nullable(
      Type.Integer({ minimum: 1, maximum: 1000, description: "Its own capacity; omitted or null: the class's" }),
    ),
  ),
};
export const CreateOccurrenceBody = Type.Object(occurrenceFields, { additionalProperties: false });
export type CreateOccurrenceBody = Static<typeof CreateOccurrenceBody>;

export const ScheduleBody = Type.Object(
  {
    ...occurrenceFields,
    weeks: Type.Integer({
      minimum: 1,
      maximum: MAX_WEEKS,
      description: `How many weekly occurrences, the first at starts_at, each at the same store-local time (1 to ${MAX_WEEKS})`,
    }),
  },
  { additionalProperties: false },
);
export type ScheduleBody = Static<typeof ScheduleBody>;

export const OccurrenceCapacityBody = Type.Object(
  {
    store_id: Type.Optional(StoreIdField),
    capacity: Nullable(Type.Integer({ minimum: 1, maximum: 1000, description: "null: the class's" })),
  },
  { additionalProperties: false },
);

const LocalDate = Type.String({ format: 'date', description: 'store-local calendar date, YYYY-MM-DD' });
export const TimetableQuery = Type.Object(
  {
    store_id: Type.Optional(StoreIdField),
    from: LocalDate,
    to: LocalDate,
    class_id: Type.Optional(Uuid),
    include_cancelled: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
export type TimetableQuery = Static<typeof TimetableQuery>;

export const OccurrenceResponse = Type.Object({ occurrence: Occurrence });
export const OccurrencesResponse = Type.Object({ occurrences: Type.Array(Occurrence) });
export const RosterResponse = Type.Object({
  occurrence: Occurrence,
  bookings: Type.Array(ClassBookingRecord, {
    description: 'Every booking, seats first (by when booked), then the waitlist in order, then the rest',
  }),
});
