// The booking page's classes door, /api/v1/book/{slug}/classes...: the week's classes with seats left
// (public, as the page is), a signed-in customer's booking or waitlist place, and the customer's own
// booking (read by the offer link's page). The customer accepts an offer through
// POST /api/v1/classes/bookings/{id}/accept (class-bookings.routes.ts). Tag "Classes".
import type { FastifyInstance } from 'fastify';
import { auth } from '../platform/auth/guard.ts';
import { declareRoutes, ENVELOPE_ERRORS } from '../platform/http/route.ts';
import { customerContext } from '../platform/context.ts';
import { ClassBookingResponse } from './class-bookings.schemas.ts';
import {
  PageClassBookBody,
  PageClassBookingParams,
  PageClassBookingResponse,
  PageClassesParams,
  PageClassesQuery,
  PageClassesResponse,
  PageOccurrenceParams,
} from './class-page.schemas.ts';
import * as page from './class-page.service.ts';

const tags = ['Classes'];

export async function classPageRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags });
  const deps = { db: app.deps.db, clock: app.deps.clock };

  route.get('/:slug/classes', 'listBookingPageClasses', auth.public(), {
    summary: "The week's classes on the shop's page, with seats left",
    description:
      'Live occurrences of live classes starting on the 7 store-local days from `from` (default today) and still ahead, each with seats_left and whether a newcomer books (book), joins the waitlist (waitlist) or cannot (full: inside the promotion cutoff). Empty when the shop has none. An unknown or disabled page: 404.',
    schema: {
      params: PageClassesParams,
      querystring: PageClassesQuery,
      response: { 200: PageClassesResponse, ...ENVELOPE_ERRORS },
    },
    handler: (request) => page.listWeek(deps, request.params.slug, request.query.from ?? null),
  });

  route.post('/:slug/classes/occurrences/:occurrenceId/bookings', 'bookBookingPageClass', auth.customerWrite(), {
    summary: 'Book the signed-in customer into a class, or onto its waitlist (source app)',
    description:
      "The customer token from the page's email or text code. status confirmed while seats are left, else waitlisted with its waitlist_position. Already booked or waiting: 409 ALREADY_BOOKED; full inside the cutoff: 409 CLASS_FULL; cancelled: 409 OCCURRENCE_CANCELLED; started: 409 CLASS_STARTED; a customer the shop blocked: 409 CUSTOMER_BLOCKED. Nothing changes on a refusal.",
    schema: { params: PageOccurrenceParams, body: PageClassBookBody, response: { 200: ClassBookingResponse } },
    handler: (request) =>
      page.bookForCustomer(customerContext(request), request.params.slug, request.params.occurrenceId),
  });

  route.get('/:slug/classes/bookings/:bookingId', 'getBookingPageClassBooking', auth.customerRead(), {
    summary: "The signed-in customer's own class booking at this shop (the offer link's page reads it)",
    description: "Theirs by customer, or a guest booking made with the email they signed in with. Anyone else's: 404.",
    schema: { params: PageClassBookingParams, response: { 200: PageClassBookingResponse } },
    handler: (request) => page.readOwn(customerContext(request), request.params.slug, request.params.bookingId),
  });
}
