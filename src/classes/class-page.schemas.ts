// Schemas of the booking page's classes door (/api/v1/book/{slug}/classes...): the week's classes with
// seats left, a signed-in customer's booking or waitlist place, and the customer's own booking (the
// offer link's page reads it before accepting through POST /api/v1/classes/bookings/{id}/accept).
import { Type, type Static } from 'typebox';
import { Instant, Nullable, NullableInstant, NullableString, Uuid } from '../platform/http/schemas.ts';

const Slug = Type.String({ pattern: '^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$', description: "The booking page's slug" });
export const PageClassesParams = Type.Object({ slug: Slug }, { additionalProperties: false });
export const PageOccurrenceParams = Type.Object({ slug: Slug, occurrenceId: Uuid }, { additionalProperties: false });
export const PageClassBookingParams = Type.Object({ slug: Slug, bookingId: Uuid }, { additionalProperties: false });

/** How many store-local days one read of the page's timetable covers. */
export const PAGE_WEEK_DAYS = 7;

export const PageClassesQuery = Type.Object(
  {
    from: Type.Optional(
      Type.String({
        format: 'date',
        description: `The first store-local day (YYYY-MM-DD); default today. ${PAGE_WEEK_DAYS} days from it are listed`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type PageClassesQuery = Static<typeof PageClassesQuery>;

export const PageOccurrence = Type.Object({
  id: Uuid,
  name: Type.String(),
  category: NullableString,
  starts_at: Instant,
  ends_at: Instant,
  instructor_name: NullableString,
  price_pence: Nullable(Type.Integer()),
  capacity: Type.Integer(),
  seats_left: Type.Integer({ description: 'capacity - booked - offered, never below 0' }),
  waitlisted: Type.Integer(),
  joinable: Type.String({
    enum: ['book', 'waitlist', 'full'],
    description:
      'book: a seat is left; waitlist: full, the waitlist is open; full: full and inside the promotion cutoff',
  }),
});
export type PageOccurrence = Static<typeof PageOccurrence>;

export const PageClassesResponse = Type.Object({
  timezone: Type.String(),
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date', description: 'The last day listed (inclusive)' }),
  occurrences: Type.Array(PageOccurrence, {
    description: 'Live occurrences still to start, in start order; empty when the shop has no classes',
  }),
});

export const PageClassBookBody = Type.Object({}, { additionalProperties: false });

export const PageClassBooking = Type.Object({
  id: Uuid,
  occurrence_id: Uuid,
  class_name: Type.String(),
  starts_at: Instant,
  ends_at: Instant,
  status: Type.String({
    enum: ['confirmed', 'waitlisted', 'promotion_pending', 'promotion_expired', 'cancelled', 'attended', 'no_show'],
  }),
  waitlist_position: Nullable(Type.Integer()),
  offer_expires_at: NullableInstant,
});
export type PageClassBooking = Static<typeof PageClassBooking>;
export const PageClassBookingResponse = Type.Object({ booking: PageClassBooking });
