// GET /api/v1/customers/{customerId}/attendance: the Class booking record and its page.
import { Type, type Static } from 'typebox';
import { Nullable, NullableInstant, NullableString, Uuid } from '../../platform/http/schemas.ts';
import { offsetPageQuery, offsetPagination } from '../offset-page.schemas.ts';

export const ATTENDANCE_PAGE = { default: 25, max: 50 } as const;

export const AttendanceParams = Type.Object({ customerId: Uuid }, { additionalProperties: false });

export const AttendanceQuery = Type.Object(
  {
    store_id: Uuid,
    ...offsetPageQuery(ATTENDANCE_PAGE),
  },
  { additionalProperties: false },
);
export type AttendanceQuery = Static<typeof AttendanceQuery>;

const Day = Nullable(Type.String({ format: 'date' }));
const ClockTime = Nullable(Type.String({ description: 'HH:MM:SS' }));

export const ClassBooking = Type.Object({
  id: Uuid,
  status: Type.String({
    enum: ['attended', 'no_show', 'cancelled', 'confirmed', 'waitlisted', 'promotion_pending', 'promotion_expired'],
  }),
  booking_date: Day,
  booking_source: NullableString,
  class_name: NullableString,
  class_category: NullableString,
  instructor_name: NullableString,
  scheduled_date: Day,
  start_time: ClockTime,
  end_time: ClockTime,
  attended_at: NullableInstant,
  no_show_marked_at: NullableInstant,
  cancelled_at: NullableInstant,
  created_at: NullableInstant,
});
export type ClassBooking = Static<typeof ClassBooking>;

export const AttendanceResponse = Type.Object({
  bookings: Type.Array(ClassBooking),
  pagination: Type.Object({
    ...offsetPagination,
    /** Where the next page starts: offset + rows returned (see docs/decisions/customers.md). */
    next_offset: Type.Integer(),
  }),
});
