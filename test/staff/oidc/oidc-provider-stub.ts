// A real OpenID provider (oidc-provider v9) on a loopback port for the OIDC tests: one confidential
// client, PKCE required, and an interaction that signs in whichever test user is set, without a
// form, and grants "openid email profile" without asking. Used by the API tests and the e2e test.
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export const CLIENT_ID = 'back-office-test';
export const CLIENT_SECRET = 'test-client-secret-0123456789-abcdefghij';

export interface TestUser {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

export interface StubProvider {
  issuer: string;
  /** Who the next sign-in at the provider is. */
  user: TestUser;
  close(): Promise<void>;
}

export async function startOidcProvider(redirectUri: string): Promise<StubProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stub: StubProvider = {
    issuer,
    user: { sub: 'user-1', email: 'sam@example.test', email_verified: true, name: 'Sam Taylor' },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'email', 'profile'],
    cookies: { keys: ['test-cookie-key-0123456789'] },
    jwks: {
      keys: [
        {
          ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
          kid: 'test',
          use: 'sig',
          alg: 'RS256',
        } as never,
      ],
    },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ ...stub.user, sub }),
    }),
    // Consent is granted at once: the test is about the relying party, not the provider's pages.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => {
    // The interaction: sign the current test user in and send the browser back to the provider.
    if (req.url?.startsWith('/interaction/')) {
      provider
        .interactionFinished(req, res, { login: { accountId: stub.user.sub } }, { mergeWithLastSubmission: false })
        .catch((err) => {
          res.statusCode = 500;
          res.end(String(err));
        });
      return;
    }
    handle(req, res);
  });
  return stub;
}

/**
 * Follows a browser's redirects from the provider's authorization URL (keeping the provider's
 * cookies) until one leaves the provider: answers that URL (the relying party's callback).
 */
export async function followProvider(authorizationUrl: string, issuer: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (!url.startsWith(issuer)) return url;
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`The provider answered ${res.status} without a redirect: ${await res.text()}`);
    url = new URL(location, url).href;
  }
  throw new Error('Too many redirects at the provider');
}
