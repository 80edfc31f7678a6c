// The class write functions (db/functions/classes.sql, class-book.sql, class-booking-status.sql,
// class-occurrence-capacity.sql), each with the request it sends and the result body it reads as
// TypeBox schemas: src/platform/one-statement.ts checks both at the call, and
// test/platform/write-functions.test.ts checks each request schema against the function's
// `req->>'field'` reads. The results are the routes' own 200 answers.
import { Type, type Static } from 'typebox';
import { writeFunction } from '../platform/one-statement.ts';
import { Instant, Nullable, NullableString, NullableUuid, Uuid } from '../platform/http/schemas.ts';
import { CLASS_BOOKING_SOURCES, ClassBookingActionResponse, ClassBookingResponse } from './class-bookings.schemas.ts';
import { OccurrenceResponse, OccurrencesResponse } from './occurrences.schemas.ts';

const strict = { additionalProperties: false } as const;

/**
 * A booking or a waitlist place (class-book.sql), from the desk or the booking page. A customer's
 * booking carries no guest fields; source is the API's spelling (drop_in), which the SQL stores as
 * the spec's drop-in. customer_door: a signed-in customer booking themselves on the page (true), which
 * the SQL refuses for a class that takes no online bookings; the desk sends false.
 */
export const ClassBook = Type.Object(
  {
    store_id: Uuid,
    occurrence_id: Uuid,
    customer_id: NullableUuid,
    guest_name: NullableString,
    guest_email: NullableString,
    source: Type.String({ enum: [...CLASS_BOOKING_SOURCES] }),
    customer_door: Type.Boolean(),
  },
  strict,
);
export type ClassBook = Static<typeof ClassBook>;
export const classBook = writeFunction('bbo_class_book', ClassBook, ClassBookingResponse);

export const CLASS_BOOKING_ACTIONS = ['cancel', 'check_in', 'no_show', 'accept'] as const;
export type BookingAction = (typeof CLASS_BOOKING_ACTIONS)[number];

/** Cancel, check in, no-show or accept (class-booking-status.sql); customer_id: a customer's own acceptance, else null. */
export const ClassBookingStatus = Type.Object(
  {
    store_id: Uuid,
    booking_id: Uuid,
    action: Type.String({ enum: [...CLASS_BOOKING_ACTIONS] }),
    customer_id: NullableUuid,
  },
  strict,
);
export const classBookingStatus = writeFunction(
  'bbo_class_booking_status',
  ClassBookingStatus,
  ClassBookingActionResponse,
);

/** One occurrence (weeks 1) or a weekly run, all or none (classes.sql). instructor_unit_id, capacity: null for the class's. */
export const ClassSchedule = Type.Object(
  {
    store_id: Uuid,
    class_id: Uuid,
    starts_at: Instant,
    weeks: Type.Integer({ minimum: 1 }),
    instructor_unit_id: NullableUuid,
    capacity: Nullable(Type.Integer({ minimum: 1 })),
  },
  strict,
);
export type ClassSchedule = Static<typeof ClassSchedule>;
export const classSchedule = writeFunction('bbo_class_schedule', ClassSchedule, OccurrencesResponse);

export const classOccurrenceCancel = writeFunction(
  'bbo_class_occurrence_cancel',
  Type.Object({ store_id: Uuid, occurrence_id: Uuid }, strict),
  OccurrenceResponse,
);

/** An occurrence's own capacity (class-occurrence-capacity.sql); null: the class's. */
export const classOccurrenceCapacity = writeFunction(
  'bbo_class_occurrence_capacity',
  Type.Object({ store_id: Uuid, occurrence_id: Uuid, capacity: Nullable(Type.Integer({ minimum: 1 })) }, strict),
  OccurrenceResponse,
);
