// The page's one API client: openapi-fetch over the generated types (client/), public operations of
// the booking page only. Every refusal becomes { message, code, retryAfter } with the envelope's own
// sentence, so the customer reads what the server said.
import { createApiClient, errorCode, errorMessage, type ApiClient } from '../../client/index.ts';

export type { ApiClient };

/** Where the page lives: /book/{slug} or /book/{slug}/manage. */
export function route(path = location.pathname): { slug: string; manage: boolean } | null {
  const m = /^\/book\/([a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?)(\/manage)?\/?$/.exec(path);
  return m ? { slug: m[1], manage: !!m[2] } : null;
}

// The customer token from the email code (about 2 hours) and the manage token live in this tab only.
let customerToken: string | null = null;
const key = (slug: string, what: string) => `bbo.book.${slug}.${what}`;

export function setCustomerToken(slug: string, token: string | null) {
  customerToken = token;
  if (token) sessionStorage.setItem(key(slug, 'customer'), token);
  else sessionStorage.removeItem(key(slug, 'customer'));
}
export function getCustomerToken(slug: string): string | null {
  return customerToken ?? sessionStorage.getItem(key(slug, 'customer'));
}

/** The browser's page session (one live hold per browser): issued by the first hold. */
export function pageSession(slug: string): string | null {
  return sessionStorage.getItem(key(slug, 'session'));
}
export function setPageSession(slug: string, value: string) {
  sessionStorage.setItem(key(slug, 'session'), value);
}

export function manageToken(slug: string): string | null {
  return sessionStorage.getItem(key(slug, 'manage'));
}
export function setManageToken(slug: string, token: string) {
  sessionStorage.setItem(key(slug, 'manage'), token);
}

/** Takes a token from the address fragment (#token=...) and removes it from the address bar. */
export function takeFragmentToken(): string | null {
  const m = /^#token=([A-Za-z0-9\-._~+/]+=*)/.exec(location.hash);
  if (!m) return null;
  history.replaceState(null, '', location.pathname + location.search);
  return m[1];
}

/** A client whose bearer is the given token (read at send time). */
export function makeClient(token: () => string | null = () => null): ApiClient {
  return createApiClient({ token });
}

export interface Refusal {
  message: string;
  code: string | null;
  status: number;
  retryAfter: number | null;
}

export type Outcome<T> = { ok: true; data: T } | { ok: false; refusal: Refusal };

/** Runs one call and turns its answer into data or a refusal with the envelope's sentence. */
export async function attempt<T>(
  call: () => Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<Outcome<T>> {
  try {
    const { data, error, response } = await call();
    if (data !== undefined && error === undefined) return { ok: true, data };
    const retry = Number(response.headers.get('retry-after'));
    return {
      ok: false,
      refusal: {
        message: errorMessage(error),
        code: errorCode(error),
        status: response.status,
        retryAfter: Number.isFinite(retry) && retry > 0 ? retry : null,
      },
    };
  } catch (err) {
    return { ok: false, refusal: { message: errorMessage(err), code: null, status: 0, retryAfter: null } };
  }
}

/** The refusal as the customer reads it: the envelope's sentence, and when to try again. */
export function sentence(r: Refusal): string {
  if (!r.retryAfter) return r.message;
  const wait = r.retryAfter >= 120 ? `${Math.ceil(r.retryAfter / 60)} minutes` : `${r.retryAfter} seconds`;
  return `${r.message} You can try again in ${wait}.`;
}

/** A slot refusal: someone else took it (or it stopped being offered) between the search and the hold. */
export const SLOT_LOST = new Set(['SLOT_TAKEN', 'SLOT_UNAVAILABLE', 'HOLD_EXPIRED', 'HOLD_RELEASED']);

/** An Idempotency-Key for one action (a retry of the same press replays it). */
export function newKey(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((x) => x.toString(16).padStart(2, '0')).join('');
}
