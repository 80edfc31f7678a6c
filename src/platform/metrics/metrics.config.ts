// The metrics endpoint's setting, parsed from the environment record config.ts hands over.
export interface MetricsConfig {
  /** METRICS_TOKEN: GET /metrics answers only with this bearer token; null leaves the route unregistered (404). */
  readonly token: string | null;
}

export function parseMetricsConfig(
  env: Record<string, string | undefined>,
  fail: (message: string) => never,
): MetricsConfig {
  const token = env.METRICS_TOKEN?.trim() || null;
  if (token !== null && token.length < 16) fail('METRICS_TOKEN must be at least 16 characters');
  if (token !== null && !/^[A-Za-z0-9\-._~+/]+=*$/.test(token))
    fail('METRICS_TOKEN must be a bearer token (letters, digits and -._~+/ only)');
  return Object.freeze({ token });
}
