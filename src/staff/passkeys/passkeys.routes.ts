// /api/v1/auth/passkeys: add a passkey when signed in (options, then verify), sign in with one
// (options, then verify), list and remove one's own. Sign-in is public (the passkey is the proof);
// the rest need the staff session cookie, read by staff-session.ts.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { auth } from '../../platform/auth/guard.ts';
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
const ERR = { '4xx': { $ref: 'ErrorEnvelope#' }, '5xx': { $ref: 'ErrorEnvelope#' } };
const NoBody = Type.Object({}, { additionalProperties: false });
const sessionNote = "Needs the staff session cookie (sign in first); a write must come from the service's own origin.";

export async function passkeysRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const deps = app.deps;
  // Sign-in answers (options, challenges, session cookies) are never kept by a cache.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  // The sign-in options are public and each stores a challenge: limited per client address.
  const limited = { auth: auth.public(), rateLimit: routeLimit(deps.config.rateLimits.searchPerMinute) };

  app.post(
    '/registration/options',
    {
      config: { auth: auth.public() },
      schema: {
        operationId: 'passkeyRegistrationOptions',
        summary: 'Start adding a passkey to your account',
        description: sessionNote,
        tags,
        body: Type.Optional(NoBody),
        response: { 200: RegistrationOptions, ...ERR },
      },
    },
    async (request) => service.registrationOptions(deps, await signedInStaff(request, { write: true })),
  );

  app.post(
    '/registration/verify',
    {
      config: { auth: auth.public() },
      schema: {
        operationId: 'passkeyRegistrationVerify',
        summary: "Finish adding a passkey: the browser's answer to the options",
        description: sessionNote,
        tags,
        body: RegistrationBody,
        response: { 200: Passkey, ...ERR },
      },
    },
    async (request) => service.verifyRegistration(deps, await signedInStaff(request, { write: true }), request.body),
  );

  app.post(
    '/authentication/options',
    {
      config: limited,
      schema: {
        operationId: 'passkeySignInOptions',
        summary: 'Start signing in with a passkey',
        tags,
        body: Type.Optional(NoBody),
        response: { 200: AuthenticationOptions, ...ERR },
      },
    },
    async (request) => {
      refuseCrossOrigin(request);
      return service.authenticationOptions(deps);
    },
  );

  app.post(
    '/authentication/verify',
    {
      config: limited,
      schema: {
        operationId: 'passkeySignIn',
        summary: "Sign in with a passkey: the browser's answer to the options; sets the session cookie",
        tags,
        body: AuthenticationBody,
        response: { 200: SignedIn, ...ERR },
      },
    },
    async (request, reply) => {
      refuseCrossOrigin(request);
      return service.signInWithPasskey(deps, request.body, request.headers['user-agent'], reply);
    },
  );

  app.get(
    '',
    {
      config: { auth: auth.public() },
      schema: {
        operationId: 'listOwnPasskeys',
        summary: 'Your passkeys',
        description: sessionNote,
        tags,
        response: { 200: PasskeyList, ...ERR },
      },
    },
    async (request) => service.listOwnPasskeys(deps, await signedInStaff(request, { write: false })),
  );

  app.delete(
    '/:passkeyId',
    {
      config: { auth: auth.public() },
      schema: {
        operationId: 'removeOwnPasskey',
        summary: 'Remove one of your passkeys; answers the ones left',
        description: sessionNote,
        tags,
        params: PasskeyParams,
        response: { 200: PasskeyList, ...ERR },
      },
    },
    async (request) =>
      service.removeOwnPasskey(deps, await signedInStaff(request, { write: true }), request.params.passkeyId),
  );
}
