// /api/v1/classes/occurrences/{occurrenceId}/bookings and /api/v1/classes/bookings/...: book, read,
// cancel, check in, no-show and accept. Every operation needs the classes entitlement.
import type { FastifyInstance } from 'fastify';
import { auth } from '../platform/auth/guard.ts';
import { declareRoutes } from '../platform/http/route.ts';
import { customerContext, merchantContext } from '../platform/context.ts';
import {
  ActionBody,
  BookClassBody,
  BookingParams,
  ClassBookingActionResponse,
  ClassBookingResponse,
  OccurrenceBookingParams,
} from './class-bookings.schemas.ts';
import * as bookings from './class-bookings.service.ts';
import type { BookingAction } from './class-bookings.service.ts';
import { acceptForCustomer } from './class-page.service.ts';

const tags = ['Classes'];
const read = auth.merchantRead({ entitlements: ['classes'] });
const write = auth.merchantWrite({ entitlements: ['classes'] });
// An offer is taken by the shop for the customer (on the phone) or by the customer through the offer
// email's link (the booking page, after its email code): a customer token may accept its own.
const acceptRule = auth.merchantOrCustomerWrite({ entitlements: ['classes'] });

const ACTIONS: Array<{
  path: string;
  action: BookingAction;
  operationId: string;
  summary: string;
  description: string;
}> = [
  {
    path: 'cancel',
    action: 'cancel',
    operationId: 'cancelClassBooking',
    summary: 'Cancel a class booking or waitlist place',
    description:
      'A freed seat (a confirmed or offered booking cancelled) goes to the first in line: confirmed at once (waitlist_mode auto) or offered (offer), unless within the promotion cutoff. Cancelling again: noop.',
  },
  {
    path: 'check-in',
    action: 'check_in',
    operationId: 'checkInClassBooking',
    summary: 'Check a confirmed booking in (attended)',
    description: 'Sets status attended and attended_at. Again: noop.',
  },
  {
    path: 'no-show',
    action: 'no_show',
    operationId: 'noShowClassBooking',
    summary: 'Mark a confirmed booking a no-show',
    description:
      'Not before the class starts (409 NOT_YET_DUE); an attended booking cannot be a no-show (409 ALREADY_CHECKED_IN).',
  },
  {
    path: 'accept',
    action: 'accept',
    operationId: 'acceptClassOffer',
    summary: 'Accept an offered seat (for the customer)',
    description:
      "A promotion_pending booking becomes confirmed while its offer lasts; after offer_expires_at it is refused (409 OFFER_EXPIRED) and nothing changes. Accepting again: noop. A customer token accepts only its own (by customer, or a guest booking made with its email): anyone else's answers 404 and nothing changes.",
  },
];

export async function classBookingsRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags });
  route.post('/occurrences/:occurrenceId/bookings', 'bookClass', write, {
    summary: 'Book a person into an occurrence, or onto its waitlist',
    description:
      'customer_id, or guest_name with guest_email. status confirmed while seats are left, else waitlisted with its waitlist_position (in the order bookings committed, from 1). A full occurrence within its promotion cutoff: 409 CLASS_FULL. A cancelled one: 409 OCCURRENCE_CANCELLED.',
    schema: { params: OccurrenceBookingParams, body: BookClassBody, response: { 200: ClassBookingResponse } },
    handler: (request) => bookings.book(merchantContext(request), request.params.occurrenceId, request.body),
  });

  route.get('/bookings/:bookingId', 'getClassBooking', read, {
    summary: 'Read a class booking',
    schema: { params: BookingParams, response: { 200: ClassBookingResponse } },
    handler: (request) => bookings.getBooking(merchantContext(request), request.params.bookingId),
  });

  for (const a of ACTIONS) {
    route.post(`/bookings/:bookingId/${a.path}`, a.operationId, a.action === 'accept' ? acceptRule : write, {
      summary: a.summary,
      description: a.description,
      schema: { params: BookingParams, body: ActionBody, response: { 200: ClassBookingActionResponse } },
      handler: (request) =>
        request.actor?.kind === 'customer'
          ? acceptForCustomer(customerContext(request), request.params.bookingId)
          : bookings.changeStatus(merchantContext(request), request.params.bookingId, a.action),
    });
  }
}
