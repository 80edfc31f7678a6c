// The data schema of each class booking event; buildApp hands them to the OpenAPI `webhooks` map.
import { Type, type TSchema } from 'typebox';
import { local, previousStatus, type EventData } from '../events/event-payloads.ts';
import { ClassBookingRecord } from './class-bookings.schemas.ts';

const classBooking = (description: string, extra: Record<string, TSchema> = {}) =>
  Type.Object({ ...ClassBookingRecord.properties, ...local, ...extra }, { description });

export const CLASS_EVENT_DATA: EventData = {
  'class.booking.created': classBooking('A class booking with a seat (status confirmed)'),
  'class.booking.waitlisted': classBooking(
    'A class booking on the waitlist (status waitlisted, with its waitlist_position)',
  ),
  'class.booking.promoted': classBooking(
    'A waitlisted booking given a freed seat: confirmed (waitlist_mode auto) or offered until offer_expires_at (promotion_pending)',
  ),
  'class.booking.accepted': classBooking('An offered seat accepted (confirmed)', { previous: previousStatus }),
  'class.booking.offer_expired': classBooking(
    'An offered seat not accepted in time (promotion_expired); the next in line is offered it',
  ),
  'class.booking.cancelled': classBooking(
    'A cancelled class booking (reason occurrence_cancelled when the class was cancelled)',
    {
      previous: Type.Optional(previousStatus),
      reason: Type.Optional(Type.String()),
    },
  ),
  'class.booking.attended': classBooking('A class booking checked in (attended, attended_at)', {
    previous: previousStatus,
  }),
  'class.booking.no_show': classBooking('A class booking marked a no-show', { previous: previousStatus }),
};
