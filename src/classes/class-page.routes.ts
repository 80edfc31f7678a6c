// The booking page's classes door, /api/v1/book/{slug}/classes...: the week's classes with seats left
// (public, as the page is), a signed-in customer's booking or waitlist place, and the customer's own
// booking (read by the offer link's page). The customer accepts an offer through
// POST /api/v1/classes/bookings/{id}/accept (class-bookings.routes.ts). Tag "Classes".
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { auth } from '../platform/auth/guard.ts';
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
// A public operation gets no error statuses from the OpenAPI hook (only guarded ones do): listed here.
const ERR = { '4xx': { $ref: 'ErrorEnvelope#' }, '5xx': { $ref: 'ErrorEnvelope#' } };

export async function classPageRoutes(app: FastifyInstance) {
  const deps = { db: app.deps.db, clock: app.deps.clock };

  app.get<{ Params: Static<typeof PageClassesParams>; Querystring: PageClassesQuery }>('/:slug/classes', {
    config: { auth: auth.public() },
    schema: {
      operationId: 'listBookingPageClasses',
      tags,
      summary: "The week's classes on the shop's page, with seats left",
      description:
        'Live occurrences of live classes starting on the 7 store-local days from `from` (default today) and still ahead, each with seats_left and whether a newcomer books (book), joins the waitlist (waitlist) or cannot (full: inside the promotion cutoff). Empty when the shop has none. An unknown or disabled page: 404.',
      params: PageClassesParams,
      querystring: PageClassesQuery,
      response: { 200: PageClassesResponse, ...ERR },
    },
    handler: (request) => page.listWeek(deps, request.params.slug, request.query.from ?? null),
  });

  app.post<{ Params: Static<typeof PageOccurrenceParams>; Body: Static<typeof PageClassBookBody> }>(
    '/:slug/classes/occurrences/:occurrenceId/bookings',
    {
      config: { auth: auth.customerWrite() },
      schema: {
        operationId: 'bookBookingPageClass',
        tags,
        summary: 'Book the signed-in customer into a class, or onto its waitlist (source app)',
        description:
          "The customer token from the page's email or text code. status confirmed while seats are left, else waitlisted with its waitlist_position. Already booked or waiting: 409 ALREADY_BOOKED; full inside the cutoff: 409 CLASS_FULL; cancelled: 409 OCCURRENCE_CANCELLED; started: 409 CLASS_STARTED; a customer the shop blocked: 409 CUSTOMER_BLOCKED. Nothing changes on a refusal.",
        params: PageOccurrenceParams,
        body: PageClassBookBody,
        response: { 200: ClassBookingResponse },
      },
      handler: (request) =>
        page.bookForCustomer(customerContext(request), request.params.slug, request.params.occurrenceId),
    },
  );

  app.get<{ Params: Static<typeof PageClassBookingParams> }>('/:slug/classes/bookings/:bookingId', {
    config: { auth: auth.customerRead() },
    schema: {
      operationId: 'getBookingPageClassBooking',
      tags,
      summary: "The signed-in customer's own class booking at this shop (the offer link's page reads it)",
      description:
        "Theirs by customer, or a guest booking made with the email they signed in with. Anyone else's: 404.",
      params: PageClassBookingParams,
      response: { 200: PageClassBookingResponse },
    },
    handler: (request) => page.readOwn(customerContext(request), request.params.slug, request.params.bookingId),
  });
}
