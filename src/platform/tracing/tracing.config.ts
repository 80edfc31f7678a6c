// The tracing settings, parsed from the environment record config.ts hands over.
export interface TracingConfig {
  /** OTEL_EXPORTER_OTLP_ENDPOINT (OTLP over HTTP, e.g. http://collector:4318); null: no tracing at all. */
  readonly endpoint: string | null;
  /** OTEL_SERVICE_NAME, the service.name resource attribute. */
  readonly serviceName: string;
}

export function parseTracingConfig(
  env: Record<string, string | undefined>,
  fail: (message: string) => never,
): TracingConfig {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || null;
  if (endpoint !== null && !/^https?:\/\/[^/]/.test(endpoint))
    fail('OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL (OTLP over HTTP)');
  return Object.freeze({ endpoint, serviceName: env.OTEL_SERVICE_NAME?.trim() || 'bookings-back-office' });
}
