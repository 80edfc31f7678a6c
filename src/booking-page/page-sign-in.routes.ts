// The booking page's sign-in by code: POST /api/v1/book/{slug}/email-code and /sms-code send a code,
// their /verify trades it for a customer token. Public; the same answer whether or not the person is
// known; the limits per email, phone and address are page-sign-in.service.ts's. Declared by
// bookingPageRoutes on its own declarer, so under its prefix, tag and no-store hook.
import { auth } from '../platform/auth/guard.ts';
import { ENVELOPE_ERRORS, type RouteDeclarer } from '../platform/http/route.ts';
import * as s from './booking-page.schemas.ts';
import type { PageDeps } from './page-deps.ts';
import { pageContext } from './page-context.ts';
import { sendPageEmailCode, sendPageSmsCode, verifyPageEmailCode, verifyPageSmsCode } from './page-sign-in.service.ts';

export function pageSignInRoutes(route: RouteDeclarer, deps: PageDeps) {
  route.post('/:slug/email-code', 'sendBookingPageCode', auth.public(), {
    summary:
      'Email a 6-digit sign-in code (10 minutes, once); the same answer whether or not the email is known. At most 5 an hour per email, 20 per address',
    schema: { params: s.PageParams, body: s.SendCodeBody, response: { 200: s.SendCodeResponse, ...ENVELOPE_ERRORS } },
    handler: async (request) => sendPageEmailCode(pageContext(request, deps), request.params.slug, request.body),
  });

  route.post('/:slug/email-code/verify', 'verifyBookingPageCode', auth.public(), {
    summary:
      'Trade the emailed code for a customer token of about 2 hours; name and phone are used only for a new customer. At most 10 tries a minute per address and per email; no code and a wrong code answer alike',
    schema: {
      params: s.PageParams,
      body: s.VerifyCodeBody,
      response: { 200: s.VerifyCodeResponse, ...ENVELOPE_ERRORS },
    },
    handler: async (request) => verifyPageEmailCode(pageContext(request, deps), request.params.slug, request.body),
  });

  route.post('/:slug/sms-code', 'sendBookingPageSmsCode', auth.public(), {
    summary:
      "Text a 6-digit sign-in code to a UK mobile (when page.sign_in offers sms): the email code's limits, lifetime and single use",
    schema: {
      params: s.PageParams,
      body: s.SendSmsCodeBody,
      response: { 200: s.SendCodeResponse, ...ENVELOPE_ERRORS },
    },
    handler: async (request) => sendPageSmsCode(pageContext(request, deps), request.params.slug, request.body),
  });

  route.post('/:slug/sms-code/verify', 'verifyBookingPageSmsCode', auth.public(), {
    summary:
      'Trade the texted code for a customer token of about 2 hours; name and email are used only for a new customer',
    schema: {
      params: s.PageParams,
      body: s.VerifySmsCodeBody,
      response: { 200: s.VerifySmsCodeResponse, ...ENVELOPE_ERRORS },
    },
    handler: async (request) => verifyPageSmsCode(pageContext(request, deps), request.params.slug, request.body),
  });
}
