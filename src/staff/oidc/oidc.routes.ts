// /api/v1/auth: which ways in this service offers (public), and sign-in through the shop's identity
// provider: GET /oidc/start sends the browser there, GET /oidc/callback brings it back signed in.
// Both are browser navigations (302), never fetched by the console: hidden from /openapi.json, whose
// operations answer 200 with JSON, and described on signInOptions, in src/staff/oidc/README.md and
// docs/decisions/staff-sign-in-methods.md.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes, ENVELOPE_ERRORS } from '../../platform/http/route.ts';
import { routeLimit } from '../../platform/http/rate-limit.ts';
import { Uuid } from '../../platform/http/schemas.ts';
import { finishOidc, startOidc } from './oidc.service.ts';

const tags = ['Staff'];
const Redirect = (description: string) => Type.Null({ description });

export const SignInOptions = Type.Object(
  {
    password: Type.Boolean({ description: 'Email and password (POST /api/v1/auth/sign-in).' }),
    passkey: Type.Boolean({
      description: 'Passkeys (POST /api/v1/auth/passkeys/authentication/options, then /verify).',
    }),
    oidc: Type.Boolean({
      description: "The shop's identity provider (GET /api/v1/auth/oidc/start): OIDC_ISSUER is set.",
    }),
  },
  { additionalProperties: false },
);

export async function oidcRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags });
  const deps = app.deps;
  // Sign-in answers (options, challenges, session cookies) are never kept by a cache.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const limited = { rateLimit: routeLimit(deps.config.rateLimits.searchPerMinute) };

  route.get('/options', 'signInOptions', auth.public(), {
    summary: "The ways to sign in here (the console's sign-in page asks)",
    description:
      'When `oidc` is true, the sign-in page links to GET /api/v1/auth/oidc/start (a browser navigation, not an API call: it redirects to the identity provider with PKCE, state and nonce; the provider sends the browser back to GET /api/v1/auth/oidc/callback, which redirects to /console/ signed in, or to /console/#oidc_error=expired|provider|unverified_email|no_account). Optional `?store_id=` picks the store.',
    schema: { response: { 200: SignInOptions, ...ENVELOPE_ERRORS } },
    handler: async () => ({ password: true, passkey: true, oidc: deps.config.oidc !== null }),
  });

  route.get('/oidc/start', 'oidcStart', auth.public(), {
    summary: "Sign in through the shop's identity provider: redirects there",
    description:
      "A browser navigation. Redirects (302) to the provider's authorization endpoint with PKCE (S256), state and nonce, and sets a short cookie (bbo_oidc, 10 minutes) tying the callback to this browser. 404 OIDC_NOT_CONFIGURED when OIDC_* is not set.",
    config: limited,
    hide: true,
    schema: {
      querystring: Type.Object({ store_id: Type.Optional(Uuid) }, { additionalProperties: false }),
      response: { 302: Redirect('To the identity provider'), ...ENVELOPE_ERRORS },
    },
    handler: async (request, reply) => reply.redirect(await startOidc(deps, request.query, reply), 302),
  });

  route.get('/oidc/callback', 'oidcCallback', auth.public(), {
    summary: 'Where the identity provider sends the browser back: signs in and redirects to the console',
    description:
      "The provider's redirect_uri: PUBLIC_URL + /api/v1/auth/oidc/callback (register it with the provider). A verified email signs in the staff member who has it, or accepts a pending invitation to it; OIDC never creates an account otherwise. Redirects (302) to /console/ with the session cookie set, or to /console/#oidc_error=expired|provider|unverified_email|no_account.",
    config: limited,
    hide: true,
    schema: {
      // The provider's own parameters vary (Google adds scope, authuser, hd, prompt): openid-client
      // reads and checks the ones that matter (code, state, iss, error).
      querystring: Type.Object(
        {
          code: Type.Optional(Type.String({ maxLength: 2048 })),
          state: Type.Optional(Type.String({ maxLength: 200 })),
        },
        { additionalProperties: true },
      ),
      response: { 302: Redirect('To the console, signed in or with #oidc_error='), ...ENVELOPE_ERRORS },
    },
    handler: async (request, reply) => reply.redirect(await finishOidc(deps, request, reply), 302),
  });
}
