// The booking page's API, /api/v1/book/{slug}/...: public operations (tag "Booking page") readable
// without a token for an enabled page only; an unknown slug and a page switched off answer the same
// 404. Confirming needs the customer token from the email code; the manage operations need the
// manage link's token (Authorization: Bearer), checked by manage.service.ts.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { auth } from '../platform/auth/guard.ts';
import { declareRoutes, ENVELOPE_ERRORS } from '../platform/http/route.ts';
import { routeLimit } from '../platform/http/rate-limit.ts';
import { AvailabilityResponse } from '../bookings/availability/availability.schemas.ts';
import type { AvailabilityResponse as AvailabilityAnswer } from '../bookings/availability/availability.schemas.ts';
import * as s from './booking-page.schemas.ts';
import {
  confirmPageHold,
  createPageHold,
  getBookingPage,
  pageChallenge,
  releasePageHold,
  searchPageAvailability,
} from './booking-page.service.ts';
import { cancelManagedBooking, getManagedBooking, rescheduleManagedBooking } from './manage.service.ts';
import type { PageDeps } from './page-deps.ts';
import { bearerToken } from './page-tokens.ts';
import { pageContext } from './page-context.ts';
import { pageSignInRoutes } from './page-sign-in.routes.ts';

const tags = ['Booking page'];
const SessionHeaders = Type.Object({
  'x-page-session': Type.Optional(
    Type.String({ maxLength: 1000, description: 'the page_session a hold answer gave this browser' }),
  ),
});
const ManageHeaders = Type.Object({
  authorization: Type.Optional(
    Type.String({ maxLength: 2100, description: "Bearer <the manage link's token, from its #token= fragment>" }),
  ),
});

export async function bookingPageRoutes(app: FastifyInstance, opts: { deps: PageDeps }) {
  const route = declareRoutes(app, { tags });
  const deps = opts.deps;
  // Public routes skip the global per-principal limit (rate-limit.ts); the two a script would hammer
  // (the search, and challenges to farm) keep the search limit per client address.
  const limited = {
    rateLimit: { ...routeLimit(deps.config.rateLimits.searchPerMinute), allowList: () => false },
  };

  route.get('/:slug', 'getBookingPage', auth.public(), {
    summary: "The shop's page: name, zone, policies, services shown online and staff bookable online",
    schema: { params: s.PageParams, response: { 200: s.BookingPageResponse, ...ENVELOPE_ERRORS } },
    handler: async (request) => getBookingPage(pageContext(request, deps), request.params.slug),
  });

  route.get('/:slug/availability', 'searchBookingPageAvailability', auth.public(), {
    summary: "Free start times (the customer's view of searchAvailability) for the page's store; no token",
    config: limited,
    schema: {
      params: s.PageParams,
      querystring: s.PageAvailabilityQuery,
      response: { 200: AvailabilityResponse, ...ENVELOPE_ERRORS },
    },
    handler: async (request, reply) => {
      const body = await searchPageAvailability(pageContext(request, deps), request.params.slug, request.query);
      return reply.type('application/json; charset=utf-8').send(body as unknown as AvailabilityAnswer);
    },
  });

  route.get('/:slug/challenge', 'getBookingPageChallenge', auth.public(), {
    summary:
      'A proof-of-work challenge (ALTCHA) for sending a code or placing a hold; expires in 10 minutes, works once',
    config: limited,
    schema: { params: s.PageParams, response: { 200: s.ChallengeResponse, ...ENVELOPE_ERRORS } },
    handler: async (request) => pageChallenge(pageContext(request, deps), request.params.slug),
  });

  route.post('/:slug/holds', 'createPageHold', auth.public(), {
    summary:
      'Hold the chosen time for hold_minutes before sign-in; one live hold per browser (a new one releases the last), a few per address',
    schema: {
      params: s.PageParams,
      headers: SessionHeaders,
      body: s.PageHoldBody,
      response: { 200: s.PageHoldResponse, ...ENVELOPE_ERRORS },
    },
    handler: async (request) =>
      createPageHold(pageContext(request, deps), request.params.slug, request.body, request.headers['x-page-session']),
  });

  route.delete('/:slug/holds/:holdId', 'releasePageHold', auth.public(), {
    summary: "Let this browser's hold go; idempotent",
    schema: {
      params: s.PageHoldParams,
      headers: SessionHeaders,
      response: { 200: s.PageReleaseResponse, ...ENVELOPE_ERRORS },
    },
    handler: async (request) =>
      releasePageHold(
        pageContext(request, deps),
        request.params.slug,
        request.params.holdId,
        request.headers['x-page-session'],
      ),
  });

  // Sign-in by an emailed or texted code (page-sign-in.routes.ts), here to keep the document's order.
  pageSignInRoutes(route, deps);

  route.post('/:slug/holds/:holdId/confirm', 'confirmPageHold', auth.customerWrite(), {
    summary:
      "Book this browser's hold for the signed-in customer (source online; pending_payment when a deposit is due); a retry returns the same booking",
    schema: {
      params: s.PageHoldParams,
      headers: SessionHeaders,
      body: s.PageConfirmBody,
      response: { 200: s.PageConfirmResponse, ...ENVELOPE_ERRORS },
    },
    handler: async (request) =>
      confirmPageHold(
        pageContext(request, deps),
        request.params.slug,
        request.params.holdId,
        request.headers['x-page-session'],
        request.body ?? {},
      ),
  });

  // The manage link's operations are public to the guard (no token in the document): manage.service.ts
  // checks the link's own token, sent as Authorization: Bearer.
  route.get('/:slug/manage', 'getManagedBooking', auth.public(), {
    summary: 'The booking a manage link names, and what may still be done with it',
    schema: {
      params: s.PageParams,
      headers: ManageHeaders,
      response: { 200: s.ManagedBookingResponse, ...ENVELOPE_ERRORS },
    },
    handler: async (request) =>
      getManagedBooking(pageContext(request, deps), request.params.slug, bearerToken(request.headers.authorization)),
  });

  route.post('/:slug/manage/cancel', 'cancelManagedBooking', auth.public(), {
    summary: "Cancel the booking a manage link names, inside the store's cancellation window rules",
    schema: {
      params: s.PageParams,
      headers: ManageHeaders,
      body: s.ManageCancelBody,
      response: { 200: s.ManageCancelResponse, ...ENVELOPE_ERRORS },
    },
    handler: async (request) =>
      cancelManagedBooking(
        pageContext(request, deps),
        request.params.slug,
        bearerToken(request.headers.authorization),
        request.body ?? {},
      ),
  });

  route.post('/:slug/manage/reschedule', 'rescheduleManagedBooking', auth.public(), {
    summary:
      'Move the booking to the time this browser holds (createPageHold first): the new booking is made and the old cancelled together, or nothing changes',
    schema: {
      params: s.PageParams,
      headers: Type.Object({ ...ManageHeaders.properties, ...SessionHeaders.properties }),
      body: s.ManageRescheduleBody,
      response: { 200: s.ManageRescheduleResponse, ...ENVELOPE_ERRORS },
    },
    handler: async (request) =>
      rescheduleManagedBooking(
        pageContext(request, deps),
        request.params.slug,
        bearerToken(request.headers.authorization),
        request.body.hold_id,
        request.headers['x-page-session'],
      ),
  });
}
