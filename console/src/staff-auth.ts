// Signing a staff member in and out, and their passkeys, through the generated client: the session
// is an HttpOnly cookie, so these calls carry no Authorization header and the browser sends the
// cookie (same origin). Passkeys use @simplewebauthn/browser with the server's options as they come,
// loaded when a passkey ceremony starts (the sign-in page's first paint does not carry it).
import { createApiClient, errorMessage, type ApiClient } from '../../client/index.ts';
import { staffSession, type Session } from './session.ts';

/** A client for the signed-out pages: no token, and a 401 is an answer to show, not a sign-out. */
export const publicApi: ApiClient = createApiClient({ token: () => null });

const webauthn = () => import('@simplewebauthn/browser');

/** As @simplewebauthn/browser's browserSupportsWebAuthn, without loading it. */
export const passkeysSupported = () => typeof window.PublicKeyCredential === 'function';

// Whether this browser may hold a staff session (its cookie is HttpOnly, so the page cannot see it):
// set when a sign-in starts or succeeds here, cleared when the server says there is none or at sign
// out. Without it the console does not ask who is signed in on its first load, so a first visit makes
// no request that fails (a 401 there is an error in the browser's console: Lighthouse, issue 41).
const HINT = 'bbo.console.staff-session';
export function mayHaveSession(): boolean {
  try {
    return localStorage.getItem(HINT) === '1';
  } catch {
    return true;
  }
}
export function markSession(on: boolean) {
  try {
    if (on) localStorage.setItem(HINT, '1');
    else localStorage.removeItem(HINT);
  } catch {
    // storage refused: the console asks every time instead
  }
}

/** The signed-in staff member of this browser, or null when there is none. */
export async function currentStaff(api: ApiClient = publicApi): Promise<Session | null> {
  const { data } = await api.GET('/api/v1/auth/me', {});
  markSession(Boolean(data));
  return data ? staffSession(data) : null;
}

export type Outcome = { ok: true; session: Session } | { ok: false; message: string };

async function afterSignIn(): Promise<Outcome> {
  const session = await currentStaff();
  return session
    ? { ok: true, session }
    : { ok: false, message: 'Signed in, but this browser did not keep the session cookie.' };
}

export async function signInWithPassword(email: string, password: string): Promise<Outcome> {
  const { data, error } = await publicApi.POST('/api/v1/auth/sign-in', { body: { email, password } });
  return data ? afterSignIn() : { ok: false, message: errorMessage(error) };
}

function ceremonyMessage(err: unknown): string {
  if (err instanceof Error && err.name === 'NotAllowedError') return 'The passkey prompt was closed or timed out.';
  return err instanceof Error ? err.message : 'The passkey did not answer.';
}

export async function signInWithPasskey(): Promise<Outcome> {
  const options = await publicApi.POST('/api/v1/auth/passkeys/authentication/options', { body: {} });
  if (!options.data) return { ok: false, message: errorMessage(options.error) };
  let credential;
  try {
    const { startAuthentication } = await webauthn();
    credential = await startAuthentication({ optionsJSON: options.data as never });
  } catch (err) {
    return { ok: false, message: ceremonyMessage(err) };
  }
  const { data, error } = await publicApi.POST('/api/v1/auth/passkeys/authentication/verify', {
    body: { credential: credential as never },
  });
  return data ? afterSignIn() : { ok: false, message: errorMessage(error) };
}

/** Adds a passkey to the signed-in person's account; answers an error message, or null when added. */
export async function addPasskey(api: ApiClient, name: string): Promise<string | null> {
  const options = await api.POST('/api/v1/auth/passkeys/registration/options', { body: {} });
  if (!options.data) return errorMessage(options.error);
  let credential;
  try {
    const { startRegistration } = await webauthn();
    credential = await startRegistration({ optionsJSON: options.data as never });
  } catch (err) {
    return ceremonyMessage(err);
  }
  const { data, error } = await api.POST('/api/v1/auth/passkeys/registration/verify', {
    body: { name: name || undefined, credential: credential as never },
  });
  return data ? null : errorMessage(error);
}

/** Ends this browser's session on the server (the cookie is cleared by the answer). */
export async function signOutOnServer(): Promise<void> {
  markSession(false);
  await publicApi.POST('/api/v1/auth/sign-out', {}).catch(() => undefined);
}

/** Why the identity provider sign-in came back without a session (#oidc_error=...). */
export const OIDC_ERRORS: Record<string, string> = {
  expired: 'That sign-in took too long or was opened in another browser. Try again.',
  provider: 'The identity provider did not confirm the sign-in. Try again.',
  unverified_email: 'Your identity provider has not verified your email address.',
  no_account: "There is no staff account or invitation for that email here. Ask the shop's owner to invite you.",
};

export function takeOidcError(): string | null {
  const match = /^#oidc_error=([a-z_]+)/.exec(location.hash);
  if (!match) return null;
  history.replaceState(null, '', location.pathname + location.search);
  return OIDC_ERRORS[match[1]] ?? 'The sign-in did not complete.';
}
