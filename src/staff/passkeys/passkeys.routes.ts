// /api/v1/auth/passkeys: add a passkey when signed in (options, then verify), sign in with one
// (options, then verify), list and remove one's own. Sign-in is public (the passkey is the proof);
// the rest need the staff session cookie, read by staff-session.ts.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes, ENVELOPE_ERRORS } from '../../platform/http/route.ts';
import { routeLimit } from '../../platform/http/rate-limit.ts';
import {
  AuthenticationBody,
  AuthenticationOptions,
  PasskeyList,
  PasskeyParams,
  Passkey,
  RegistrationBody,
  RegistrationOptions,
  SignedIn,
} from './passkeys.schemas.ts';
import * as service from './passkeys.service.ts';
import { refuseCrossOrigin, signedInStaff } from './staff-session.ts';

const tags = ['Staff'];
const NoBody = Type.Object({}, { additionalProperties: false });
const sessionNote = "Needs the staff session cookie (sign in first); a write must come from the service's own origin.";

export async function passkeysRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags });
  const deps = app.deps;
  // Sign-in answers (options, challenges, session cookies) are never kept by a cache.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  // The sign-in options are public and each stores a challenge: limited per client address.
  const limited = { rateLimit: routeLimit(deps.config.rateLimits.searchPerMinute) };

  route.post('/registration/options', 'passkeyRegistrationOptions', auth.public(), {
    summary: 'Start adding a passkey to your account',
    description: sessionNote,
    schema: { body: Type.Optional(NoBody), response: { 200: RegistrationOptions, ...ENVELOPE_ERRORS } },
    handler: async (request) => service.registrationOptions(deps, await signedInStaff(request, { write: true })),
  });

  route.post('/registration/verify', 'passkeyRegistrationVerify', auth.public(), {
    summary: "Finish adding a passkey: the browser's answer to the options",
    description: sessionNote,
    schema: { body: RegistrationBody, response: { 200: Passkey, ...ENVELOPE_ERRORS } },
    handler: async (request) =>
      service.verifyRegistration(deps, await signedInStaff(request, { write: true }), request.body),
  });

  route.post('/authentication/options', 'passkeySignInOptions', auth.public(), {
    summary: 'Start signing in with a passkey',
    config: limited,
    schema: { body: Type.Optional(NoBody), response: { 200: AuthenticationOptions, ...ENVELOPE_ERRORS } },
    handler: async (request) => {
      refuseCrossOrigin(request);
      return service.authenticationOptions(deps);
    },
  });

  route.post('/authentication/verify', 'passkeySignIn', auth.public(), {
    summary: "Sign in with a passkey: the browser's answer to the options; sets the session cookie",
    config: limited,
    schema: { body: AuthenticationBody, response: { 200: SignedIn, ...ENVELOPE_ERRORS } },
    handler: async (request, reply) => {
      refuseCrossOrigin(request);
      return service.signInWithPasskey(deps, request.body, request.headers['user-agent'], reply);
    },
  });

  route.get('', 'listOwnPasskeys', auth.public(), {
    summary: 'Your passkeys',
    description: sessionNote,
    schema: { response: { 200: PasskeyList, ...ENVELOPE_ERRORS } },
    handler: async (request) => service.listOwnPasskeys(deps, await signedInStaff(request, { write: false })),
  });

  route.delete('/:passkeyId', 'removeOwnPasskey', auth.public(), {
    summary: 'Remove one of your passkeys; answers the ones left',
    description: sessionNote,
    schema: { params: PasskeyParams, response: { 200: PasskeyList, ...ENVELOPE_ERRORS } },
    handler: async (request) =>
      service.removeOwnPasskey(deps, await signedInStaff(request, { write: true }), request.params.passkeyId),
  });
}
