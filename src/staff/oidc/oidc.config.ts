// Sign-in through the shop's own identity provider (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET):
// all three, or none (off). Parsed once with the rest of the configuration (src/config.ts).
export interface OidcConfig {
  /** The issuer identifier; its /.well-known/openid-configuration is read at the first sign-in. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Plain http is allowed only to a loopback issuer (a test or a local provider). */
  readonly insecureLoopback: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function parseOidcConfig(env: NodeJS.ProcessEnv, fail: (message: string) => never): OidcConfig | null {
  const issuer = env.OIDC_ISSUER?.trim() || null;
  const clientId = env.OIDC_CLIENT_ID?.trim() || null;
  const clientSecret = env.OIDC_CLIENT_SECRET?.trim() || null;
  const set = [issuer, clientId, clientSecret].filter(Boolean).length;
  if (set === 0) return null;
  if (set !== 3) fail('OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together: set all three or none');
  let url: URL;
  try {
    url = new URL(issuer!);
  } catch {
    return fail('OIDC_ISSUER must be a URL such as https://accounts.google.com');
  }
  const insecureLoopback = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
  if (url.protocol !== 'https:' && !insecureLoopback) fail('OIDC_ISSUER must be https (plain http only on loopback)');
  return Object.freeze({ issuer: issuer!, clientId: clientId!, clientSecret: clientSecret!, insecureLoopback });
}
