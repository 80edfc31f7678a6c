// The booking page's settings, parsed once with the rest of the configuration (src/config.ts).
export interface BookingPageConfig {
  /** Where customers reach this service (scheme://host[:port]): the manage links in emails start with it. */
  readonly publicUrl: string;
}

export function parseBookingPageConfig(
  env: NodeJS.ProcessEnv,
  port: number,
  fail: (message: string) => never,
): BookingPageConfig {
  const raw = env.PUBLIC_URL?.trim();
  if (!raw) return Object.freeze({ publicUrl: `http://localhost:${port}` });
  const url = raw.replace(/\/+$/, '');
  if (!/^https?:\/\/[^/\s?#]+$/.test(url)) fail(`PUBLIC_URL must be scheme://host[:port] with no path (got "${raw}")`);
  return Object.freeze({ publicUrl: url });
}
