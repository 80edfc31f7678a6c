// Request and response schemas of class bookings: book, read, cancel, check in, no-show, accept.
import { Type, type Static } from 'typebox';
import {
  Instant,
  Nullable,
  NullableInstant,
  NullableString,
  NullableUuid,
  StoreIdField,
  Uuid,
} from '../platform/http/schemas.ts';

export const CLASS_BOOKING_STATUSES = [
  'confirmed',
  'waitlisted',
  'promotion_pending',
  'promotion_expired',
  'cancelled',
  'attended',
  'no_show',
] as const;
export const CLASS_BOOKING_SOURCES = ['app', 'staff', 'drop_in'] as const;

export const ClassBookingRecord = Type.Object({
  id: Uuid,
  occurrence_id: Uuid,
  class_id: Uuid,
  customer_id: NullableUuid,
  guest_name: NullableString,
  guest_email: NullableString,
  source: Type.String({ enum: [...CLASS_BOOKING_SOURCES] }),
  status: Type.String({ enum: [...CLASS_BOOKING_STATUSES] }),
  waitlist_position: Nullable(
    Type.Integer({ description: 'Its place in the order the waitlist was joined (1 first); null if it never waited' }),
  ),
  offer_expires_at: NullableInstant,
  promoted_at: NullableInstant,
  attended_at: NullableInstant,
  no_show_marked_at: NullableInstant,
  cancelled_at: NullableInstant,
  created_at: Instant,
  starts_at: Instant,
  ends_at: Instant,
});
export type ClassBookingRecord = Static<typeof ClassBookingRecord>;

export const BookClassBody = Type.Object(
  {
    store_id: Type.Optional(StoreIdField),
    customer_id: Type.Optional(Uuid),
    guest_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })),
    guest_email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
    source: Type.Optional(
      Type.String({
        enum: [...CLASS_BOOKING_SOURCES, 'drop-in'],
        description: 'app, staff (default) or drop_in (drop-in is read as drop_in)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type BookClassBody = Static<typeof BookClassBody>;

export const BookingParams = Type.Object({ bookingId: Uuid }, { additionalProperties: false });
export const OccurrenceBookingParams = Type.Object({ occurrenceId: Uuid }, { additionalProperties: false });
export const ActionBody = Type.Object({ store_id: Type.Optional(StoreIdField) }, { additionalProperties: false });

export const ClassBookingResponse = Type.Object({ booking: ClassBookingRecord });
export const ClassBookingActionResponse = Type.Object({
  booking: ClassBookingRecord,
  noop: Type.Boolean({ description: 'true when the booking already had this outcome (nothing changed)' }),
});
