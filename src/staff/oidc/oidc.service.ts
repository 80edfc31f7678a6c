// Staff sign-in through the shop's identity provider: OpenID Connect Authorization Code with PKCE,
// state and nonce, through openid-client v6 (which checks them, the ID token's signature, issuer,
// audience and expiry). A verified email signs in an existing staff member, or accepts a pending
// invitation for it; OIDC never creates an account by itself.
import * as client from 'openid-client';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../platform/db/port.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { newSecret, secretHash } from '../secrets.ts';
import { startSession, type SessionDeps } from '../sessions/sessions.service.ts';
import { enabledStores } from '../passkeys/passkeys.repository.ts';
import type { OidcConfig } from './oidc.config.ts';
import * as repo from './oidc.repository.ts';
import { auditJoined } from '../invitations/invitations.service.ts';

/** The cookie that ties a callback to the browser that started the sign-in. */
const BROWSER_COOKIE = 'bbo_oidc';
const LOGIN_TTL_MS = 10 * 60_000;
export const CALLBACK_PATH = '/api/v1/auth/oidc/callback';

/** Why a sign-in ended without a session: the console shows a sentence for each (#oidc_error=). */
export type OidcFailure = 'expired' | 'provider' | 'unverified_email' | 'no_account';

// The provider's metadata, read once per issuer (a failed read is retried at the next sign-in).
const discovered = new Map<string, Promise<client.Configuration>>();

function providerOf(oidc: OidcConfig): Promise<client.Configuration> {
  const key = `${oidc.issuer} ${oidc.clientId}`;
  let found = discovered.get(key);
  if (!found) {
    found = client.discovery(new URL(oidc.issuer), oidc.clientId, oidc.clientSecret, undefined, {
      execute: oidc.insecureLoopback ? [client.allowInsecureRequests] : [],
      timeout: 10,
    });
    found.catch(() => discovered.delete(key));
    discovered.set(key, found);
  }
  return found;
}

function configured(deps: SessionDeps): OidcConfig {
  const oidc = deps.config.oidc;
  if (!oidc) throw new AppError('OIDC_NOT_CONFIGURED', 'Sign-in through an identity provider is not set up here');
  return oidc;
}

function callbackUrl(deps: SessionDeps): string {
  return `${new URL(deps.config.bookingPage.publicUrl).origin}${CALLBACK_PATH}`;
}

function browserCookie(deps: SessionDeps, value: string, maxAgeSeconds: number): string {
  const parts = [
    `${BROWSER_COOKIE}=${value}`,
    'Path=/api/v1/auth/oidc',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeSeconds}`,
  ];
  if (deps.config.staff.secureCookie) parts.push('Secure');
  return parts.join('; ');
}

function browserToken(request: FastifyRequest): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === BROWSER_COOKIE && value && /^[A-Za-z0-9_-]{20,100}$/.test(value)) return value;
  }
  return null;
}

/** Where the browser goes to sign in at the provider; the verifier and nonce stay here. */
export async function startOidc(deps: SessionDeps, query: { store_id?: string }, reply: FastifyReply): Promise<string> {
  const provider = await providerOf(configured(deps)).catch(() => {
    throw new AppError('SERVICE_UNAVAILABLE', 'The identity provider cannot be reached; try again shortly');
  });
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const browser = newSecret();
  const at = deps.clock.now();
  await repo.insertLogin(deps.db, {
    state,
    browserHash: secretHash(browser),
    codeVerifier,
    nonce,
    storeId: query.store_id ?? null,
    at,
    expiresAt: new Date(at.getTime() + LOGIN_TTL_MS),
  });
  reply.header('set-cookie', browserCookie(deps, browser, LOGIN_TTL_MS / 1000));
  reply.header('cache-control', 'no-store');
  return client.buildAuthorizationUrl(provider, {
    redirect_uri: callbackUrl(deps),
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  }).href;
}

/**
 * Finishes a sign-in: the started row is consumed (once, same browser, ten minutes), the code is
 * exchanged with PKCE and the ID token checked by openid-client, then the verified email names the
 * person. Answers where the browser goes next: the console, signed in, or with #oidc_error=.
 */
export async function finishOidc(
  deps: SessionDeps & { db: Database },
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<string> {
  const oidc = configured(deps);
  const consoleUrl = `${new URL(deps.config.bookingPage.publicUrl).origin}/console/`;
  const fail = (why: OidcFailure) => `${consoleUrl}#oidc_error=${why}`;
  reply.header('set-cookie', browserCookie(deps, '', 0));
  reply.header('cache-control', 'no-store');
  const at = deps.clock.now();
  const current = new URL(callbackUrl(deps));
  current.search = new URL(request.url, 'http://callback.invalid').search;
  const state = current.searchParams.get('state');
  const browser = browserToken(request);
  const login =
    state && browser ? await repo.consumeLogin(deps.db, { state, browserHash: secretHash(browser), at }) : null;
  if (!login || !state) return fail('expired');

  let claims: Record<string, unknown> | undefined;
  try {
    const provider = await providerOf(oidc);
    const tokens = await client.authorizationCodeGrant(provider, current, {
      pkceCodeVerifier: login.code_verifier,
      expectedState: state,
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
    const idToken = tokens.claims()!;
    claims = idToken;
    // Providers that keep the ID token small (oidc-provider's default, Okta) give the email at the
    // userinfo endpoint; openid-client checks that it answers for the ID token's subject.
    if (typeof idToken.email !== 'string')
      claims = await client.fetchUserInfo(provider, tokens.access_token, idToken.sub);
  } catch {
    return fail('provider');
  }
  const email = typeof claims?.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email || claims?.email_verified !== true) return fail('unverified_email');

  const staffId = await repo.personByEmail(deps.db, email);
  const stores = staffId ? await enabledStores(deps.db, staffId) : [];
  let who: { staff_id: string; store_id: string } | null = null;
  const wanted = login.store_id ? stores.find((s) => s === login.store_id) : stores[0];
  if (staffId && wanted) who = { staff_id: staffId, store_id: wanted };
  else {
    const name = typeof claims?.name === 'string' && claims.name.trim() ? claims.name.trim() : email;
    who = await deps.db.transaction(async (tx) => {
      const joined = await repo.acceptInvitationByEmail(tx, { email, name, storeId: login.store_id, at });
      if (joined) {
        await auditJoined(
          tx,
          { requestId: request.id, clock: deps.clock },
          {
            storeId: joined.store_id,
            staffId: joined.staff_id,
            name: joined.name,
            role: joined.role,
            invitationId: joined.invitation_id,
            via: 'oidc',
          },
        );
      }
      return joined;
    });
  }
  if (!who) return fail('no_account');
  try {
    await startSession(
      deps,
      { staffId: who.staff_id, storeId: who.store_id, userAgent: request.headers['user-agent'] },
      reply,
    );
  } catch (err) {
    // A place the person already had, disabled: no session.
    if (err instanceof AppError && err.code === 'UNAUTHENTICATED') return fail('no_account');
    throw err;
  }
  return consoleUrl;
}
