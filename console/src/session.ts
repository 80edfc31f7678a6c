// The signed-in merchant, one of two kinds. A staff member signs in on the sign-in page (password,
// passkey or the shop's identity provider): the session is an HttpOnly cookie the page never sees,
// and who they are comes from GET /api/v1/auth/me. A platform that mints its own merchant tokens
// opens the console with /console#token=<jwt> (an embedded console): that token lives in this tab's
// sessionStorage only, is forgotten on sign-out, and the fragment is removed from the address bar at once.
const KEY = 'console.token';

export type Role = 'owner' | 'manager' | 'front_desk' | 'staff';

export interface Session {
  /** 'token': a merchant JWT from a #token= link; 'staff': a signed-in person (session cookie). */
  kind: 'token' | 'staff';
  /** The JWT ('token' kind); empty for a staff session (its cookie is HttpOnly). */
  token: string;
  /** The person's role at the store (staff sessions); null for a token, which acts as its scopes say. */
  role: Role | null;
  email: string | null;
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
    const json = JSON.parse(
      atob(
        part
          .replace(/-/g, '+')
          .replace(/_/g, '/')
          .padEnd(Math.ceil(part.length / 4) * 4, '='),
      ),
    );
    if (typeof json.store_id !== 'string') return null;
    const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? v.split(' ') : []);
    return {
      kind: 'token',
      token,
      role: null,
      email: null,
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
  // A merchant JWT has three dot-separated parts; an invitation's token (#/accept#token=) has none.
  const match = /^#token=([A-Za-z0-9\-_~+/]+\.[A-Za-z0-9\-_~+/]+\.[A-Za-z0-9\-_~+/]+=*)/.exec(location.hash);
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

/** A staff session from GET /api/v1/auth/me. */
export function staffSession(me: {
  staff: { name: string; email: string };
  store_id: string;
  role: Role;
  permissions: string[];
}): Session {
  return {
    kind: 'staff',
    token: '',
    role: me.role,
    email: me.staff.email,
    storeId: me.store_id,
    staffName: me.staff.name,
    permissions: me.permissions,
    entitlements: [],
    expiresAt: null,
  };
}
