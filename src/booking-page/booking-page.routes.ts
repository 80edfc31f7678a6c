// The booking page's API, /api/v1/book/{slug}/...: public operations (tag "Booking page") readable
// without a token for an enabled page only; an unknown slug and a page switched off answer the same
// 404. Confirming needs the customer token from the email code; the manage operations need the
// manage link's token (Authorization: Bearer), checked by manage.service.ts.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { auth } from '../platform/auth/guard.ts';
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
import { sendPageEmailCode, sendPageSmsCode, verifyPageEmailCode, verifyPageSmsCode } from './page-sign-in.service.ts';
import { cancelManagedBooking, getManagedBooking, rescheduleManagedBooking } from './manage.service.ts';
import type { PageDeps } from './page-deps.ts';
import { bearerToken } from './page-tokens.ts';
import { pageContext } from './page-context.ts';

const tags = ['Booking page'];
// Public routes get no error responses documented by default (openapi.ts): these answer in the envelope.
const ERR = { '4xx': { $ref: 'ErrorEnvelope#' }, '5xx': { $ref: 'ErrorEnvelope#' } };
// No token (an empty requirement): the manage operations check the link's own token themselves.
const anyone = [{}];
const open = { auth: auth.public() };
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

export async function bookingPageRoutes(fastify: FastifyInstance, opts: { deps: PageDeps }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const deps = opts.deps;
  // Public routes skip the global per-principal limit (rate-limit.ts); the two a script would hammer
  // (the search, and challenges to farm) keep the search limit per client address.
  const limited = {
    ...open,
    rateLimit: { ...routeLimit(deps.config.rateLimits.searchPerMinute), allowList: () => false },
  };

  app.get(
    '/:slug',
    {
      config: open,
      schema: {
        security: anyone,
        operationId: 'getBookingPage',
        tags,
        summary: "The shop's page: name, zone, policies, services shown online and staff bookable online",
        params: s.PageParams,
        response: { 200: s.BookingPageResponse, ...ERR },
      },
    },
    async (request) => getBookingPage(pageContext(request, deps), request.params.slug),
  );

  app.get(
    '/:slug/availability',
    {
      config: limited,
      schema: {
        security: anyone,
        operationId: 'searchBookingPageAvailability',
        tags,
        summary: "Free start times (the customer's view of searchAvailability) for the page's store; no token",
        params: s.PageParams,
        querystring: s.PageAvailabilityQuery,
        response: { 200: AvailabilityResponse, ...ERR },
      },
    },
    async (request, reply) => {
      const body = await searchPageAvailability(pageContext(request, deps), request.params.slug, request.query);
      return reply.type('application/json; charset=utf-8').send(body as unknown as AvailabilityAnswer);
    },
  );

  app.get(
    '/:slug/challenge',
    {
      config: limited,
      schema: {
        security: anyone,
        operationId: 'getBookingPageChallenge',
        tags,
        summary:
          'A proof-of-work challenge (ALTCHA) for sending a code or placing a hold; expires in 10 minutes, works once',
        params: s.PageParams,
        response: { 200: s.ChallengeResponse, ...ERR },
      },
    },
    async (request) => pageChallenge(pageContext(request, deps), request.params.slug),
  );

  app.post(
    '/:slug/holds',
    {
      config: open,
      schema: {
        security: anyone,
        operationId: 'createPageHold',
        tags,
        summary:
          'Hold the chosen time for hold_minutes before sign-in; one live hold per browser (a new one releases the last), a few per address',
        params: s.PageParams,
        headers: SessionHeaders,
        body: s.PageHoldBody,
        response: { 200: s.PageHoldResponse, ...ERR },
      },
    },
    async (request) =>
      createPageHold(pageContext(request, deps), request.params.slug, request.body, request.headers['x-page-session']),
  );

  app.delete(
    '/:slug/holds/:holdId',
    {
      config: open,
      schema: {
        security: anyone,
        operationId: 'releasePageHold',
        tags,
        summary: "Let this browser's hold go; idempotent",
        params: s.PageHoldParams,
        headers: SessionHeaders,
        response: { 200: s.PageReleaseResponse, ...ERR },
      },
    },
    async (request) =>
      releasePageHold(
        pageContext(request, deps),
        request.params.slug,
        request.params.holdId,
        request.headers['x-page-session'],
      ),
  );

  app.post(
    '/:slug/email-code',
    {
      config: open,
      schema: {
        security: anyone,
        operationId: 'sendBookingPageCode',
        tags,
        summary:
          'Email a 6-digit sign-in code (10 minutes, once); the same answer whether or not the email is known. At most 5 an hour per email, 20 per address',
        params: s.PageParams,
        body: s.SendCodeBody,
        response: { 200: s.SendCodeResponse, ...ERR },
      },
    },
    async (request) => sendPageEmailCode(pageContext(request, deps), request.params.slug, request.body),
  );

  app.post(
    '/:slug/email-code/verify',
    {
      config: open,
      schema: {
        security: anyone,
        operationId: 'verifyBookingPageCode',
        tags,
        summary:
          'Trade the emailed code for a customer token of about 2 hours; name and phone are used only for a new customer. At most 10 tries a minute per address and per email; no code and a wrong code answer alike',
        params: s.PageParams,
        body: s.VerifyCodeBody,
        response: { 200: s.VerifyCodeResponse, ...ERR },
      },
    },
    async (request) => verifyPageEmailCode(pageContext(request, deps), request.params.slug, request.body),
  );

  app.post(
    '/:slug/sms-code',
    {
      config: open,
      schema: {
        security: anyone,
        operationId: 'sendBookingPageSmsCode',
        tags,
        summary:
          "Text a 6-digit sign-in code to a UK mobile (when page.sign_in offers sms): the email code's limits, lifetime and single use",
        params: s.PageParams,
        body: s.SendSmsCodeBody,
        response: { 200: s.SendCodeResponse, ...ERR },
      },
    },
    async (request) => sendPageSmsCode(pageContext(request, deps), request.params.slug, request.body),
  );

  app.post(
    '/:slug/sms-code/verify',
    {
      config: open,
      schema: {
        security: anyone,
        operationId: 'verifyBookingPageSmsCode',
        tags,
        summary:
          'Trade the texted code for a customer token of about 2 hours; name and email are used only for a new customer',
        params: s.PageParams,
        body: s.VerifySmsCodeBody,
        response: { 200: s.VerifySmsCodeResponse, ...ERR },
      },
    },
    async (request) => verifyPageSmsCode(pageContext(request, deps), request.params.slug, request.body),
  );

  app.post(
    '/:slug/holds/:holdId/confirm',
    {
      config: { auth: auth.customerWrite() },
      schema: {
        operationId: 'confirmPageHold',
        tags,
        summary:
          "Book this browser's hold for the signed-in customer (source online; pending_payment when a deposit is due); a retry returns the same booking",
        params: s.PageHoldParams,
        headers: SessionHeaders,
        body: s.PageConfirmBody,
        response: { 200: s.PageConfirmResponse, ...ERR },
      },
    },
    async (request) =>
      confirmPageHold(
        pageContext(request, deps),
        request.params.slug,
        request.params.holdId,
        request.headers['x-page-session'],
        request.body ?? {},
      ),
  );

  app.get(
    '/:slug/manage',
    {
      config: open,
      schema: {
        security: anyone,
        operationId: 'getManagedBooking',
        tags,
        summary: 'The booking a manage link names, and what may still be done with it',
        params: s.PageParams,
        headers: ManageHeaders,
        response: { 200: s.ManagedBookingResponse, ...ERR },
      },
    },
    async (request) =>
      getManagedBooking(pageContext(request, deps), request.params.slug, bearerToken(request.headers.authorization)),
  );

  app.post(
    '/:slug/manage/cancel',
    {
      config: open,
      schema: {
        security: anyone,
        operationId: 'cancelManagedBooking',
        tags,
        summary: "Cancel the booking a manage link names, inside the store's cancellation window rules",
        params: s.PageParams,
        headers: ManageHeaders,
        body: s.ManageCancelBody,
        response: { 200: s.ManageCancelResponse, ...ERR },
      },
    },
    async (request) =>
      cancelManagedBooking(
        pageContext(request, deps),
        request.params.slug,
        bearerToken(request.headers.authorization),
        request.body ?? {},
      ),
  );

  app.post(
    '/:slug/manage/reschedule',
    {
      config: open,
      schema: {
        security: anyone,
        operationId: 'rescheduleManagedBooking',
        tags,
        summary:
          'Move the booking to the time this browser holds (createPageHold first): the new booking is made and the old cancelled together, or nothing changes',
        params: s.PageParams,
        headers: Type.Object({ ...ManageHeaders.properties, ...SessionHeaders.properties }),
        body: s.ManageRescheduleBody,
        response: { 200: s.ManageRescheduleResponse, ...ERR },
      },
    },
    async (request) =>
      rescheduleManagedBooking(
        pageContext(request, deps),
        request.params.slug,
        bearerToken(request.headers.authorization),
        request.body.hold_id,
        request.headers['x-page-session'],
      ),
  );
}
