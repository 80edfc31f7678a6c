// Loaded with `node --import` before the process's own entry (npm start, npm run worker), so the
// tracing instrumentation is in place before pg or Fastify is first imported. Does nothing, and
// loads none of OpenTelemetry, unless OTEL_EXPORTER_OTLP_ENDPOINT is set. A configuration error is
// left to the entry to report. An entry like server.ts, so it may read config.ts: platform/ may not.
import { loadConfig, type Config } from './config.ts';

let config: Config | null = null;
try {
  config = loadConfig();
} catch {
  config = null;
}
if (config?.tracing.endpoint) {
  const { startTracing } = await import('./platform/tracing/tracing.ts');
  const tracing = startTracing(config.tracing);
  // Spans still batched are sent on the way out (the entry's own shutdown takes longer than this).
  // A listener replaces the signal's default exit: when the entry has none of its own, exit here.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void tracing
        .shutdown()
        .catch(() => {})
        .finally(() => {
          if (process.listenerCount(signal) === 0) process.exit(signal === 'SIGTERM' ? 143 : 130);
        });
    });
  }
  process.once('beforeExit', () => void tracing.shutdown().catch(() => {}));
}
