// The signed-in merchant: the token lives in this tab's sessionStorage only, and is forgotten on
// sign-out. A link of the form /console#token=<jwt> signs in; the fragment never leaves the browser
// (browsers do not send it), and it is removed from the address bar at once.
const KEY = 'console.token';

export interface Session {
  token: string;
  storeId: string;
  staffName: string | null;
  permissions: string[];
  entitlements: string[];
  expiresAt: number | null;
}

/** Reads the claims the console needs (the server verifies the token on every call; this only decodes). */
export function decode(token: string): Session | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=')));
    if (typeof json.store_id !== 'string') return null;
    const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? v.split(' ') : []);
    return {
      token,
      storeId: json.store_id,
      staffName: typeof json.name === 'string' ? json.name : null,
      permissions: list(json.permissions),
      entitlements: list(json.entitlements),
      expiresAt: typeof json.exp === 'number' ? json.exp * 1000 : null,
    };
  } catch {
    return null;
  }
}

/** Takes a token from the address fragment (and removes it from the address bar and history). */
export function takeTokenFromFragment(): string | null {
  const match = /^#token=([A-Za-z0-9\-._~+/]+=*)/.exec(location.hash);
  if (!match) return null;
  history.replaceState(null, '', location.pathname + location.search + '#/diary');
  return match[1];
}

export function saveToken(token: string) {
  sessionStorage.setItem(KEY, token);
}

export function storedToken(): string | null {
  return sessionStorage.getItem(KEY);
}

export function forgetToken() {
  sessionStorage.removeItem(KEY);
}
