// Staff accounts' settings, parsed once with the rest of the configuration (src/config.ts).
export interface StaffConfig {
  /** A session ends after this long without a request (STAFF_SESSION_IDLE_MINUTES, 12 hours). */
  readonly sessionIdleMs: number;
  /** A session ends this long after sign-in whatever happens (STAFF_SESSION_MAX_DAYS, 30 days). */
  readonly sessionMaxMs: number;
  /** The cookie carries Secure: on whenever PUBLIC_URL is https. */
  readonly secureCookie: boolean;
  /** The service's own origin (PUBLIC_URL): a cookie-authenticated write must come from it. */
  readonly origin: string;
  /** A file of common passwords, one a line (STAFF_COMMON_PASSWORDS_FILE); null: the published list's package. */
  readonly commonPasswordsFile: string | null;
}

const MINUTE = 60_000;

export function parseStaffConfig(
  env: NodeJS.ProcessEnv,
  publicUrl: string,
  int: (name: string, fallback: number, min: number, max: number) => number,
): StaffConfig {
  return Object.freeze({
    sessionIdleMs: int('STAFF_SESSION_IDLE_MINUTES', 12 * 60, 5, 30 * 24 * 60) * MINUTE,
    sessionMaxMs: int('STAFF_SESSION_MAX_DAYS', 30, 1, 365) * 24 * 60 * MINUTE,
    secureCookie: publicUrl.startsWith('https://'),
    origin: publicUrl.toLowerCase(),
    commonPasswordsFile: env.STAFF_COMMON_PASSWORDS_FILE?.trim() || null,
  });
}
