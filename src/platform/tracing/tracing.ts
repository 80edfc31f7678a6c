// OpenTelemetry traces: one trace per HTTP request (@fastify/otel), with a span per database
// statement (@opentelemetry/instrumentation-pg) as its children, exported over OTLP/HTTP. Off unless
// OTEL_EXPORTER_OTLP_ENDPOINT is set; started by src/tracing-preload.ts before anything imports pg.
//
// What a span may carry (docs/decisions/observability.md): the route template, the method, the
// status code, the path without its query string (a customer search's q is a name, email or phone),
// and SQL text with $n placeholders. Never a statement's values (enhancedDatabaseReporting stays
// false), a body, a header, or an exception's message (recordExceptions: false; a database error's
// detail can quote a row's values), nor a status message (the same error message).
import { createRequire } from 'node:module';
import type { Span } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { TracingConfig } from './tracing.config.ts';

export interface Tracing {
  /** Sends what is still buffered and stops. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** Where spans go (tests pass an InMemorySpanExporter); by default OTLP/HTTP to config.endpoint. */
  exporter?: SpanExporter;
}

/** The request path without its query string. */
function pathOnly(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * pg is CommonJS, imported from ES modules; the instrumentation's require hook sees it only when it
 * is first required after the hook is in place. Patching the module's own exports (shared prototypes)
 * makes the order not matter: what was imported before is patched too, once.
 */
function patchLoadedPg(instrumentation: PgInstrumentation): void {
  const require = createRequire(import.meta.url);
  const modules: Record<string, unknown> = { pg: require('pg'), 'pg-pool': require('pg-pool') };
  for (const definition of instrumentation.getModuleDefinitions()) {
    const exports = modules[definition.name] as {
      Client?: { prototype: { query: { __wrapped?: boolean } } };
      prototype?: { connect: { __wrapped?: boolean } };
    };
    if (!exports || !definition.patch) continue;
    const wrapped =
      definition.name === 'pg' ? exports.Client?.prototype.query.__wrapped : exports.prototype?.connect.__wrapped;
    if (!wrapped) definition.patch(exports as any, undefined);
  }
}

/**
 * Hands spans on without their status message: @fastify/otel sets it to a failed request's error
 * message, and an error message may quote what the client sent. The status code stays.
 */
function withoutStatusMessages(inner: SpanProcessor): SpanProcessor {
  return {
    onStart: (span, parentContext) => inner.onStart(span, parentContext),
    onEnd(span: ReadableSpan) {
      if (span.status.message !== undefined)
        (span as { status: ReadableSpan['status'] }).status = { code: span.status.code };
      inner.onEnd(span);
    },
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
  };
}

/** Starts tracing for this process. Call once, before the app is built (src/tracing-preload.ts does). */
export function startTracing(config: TracingConfig, options: TracingOptions = {}): Tracing {
  const exporter =
    options.exporter ?? new OTLPTraceExporter({ url: `${config.endpoint!.replace(/\/+$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    // A test's exporter sees each span as it ends; production batches them off the request path.
    spanProcessors: [
      withoutStatusMessages(options.exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter)),
    ],
  });
  provider.register();

  const pg = new PgInstrumentation({
    enhancedDatabaseReporting: false, // never the statement's values
    requireParentSpan: true, // the workers' polling outside any request makes no traces of its own
    addSqlCommenterCommentToQueries: false,
  });
  pg.setTracerProvider(provider);
  patchLoadedPg(pg);

  const fastify = new FastifyOtelInstrumentation({
    registerOnInitialization: true, // every Fastify instance created from now on
    instrumentHooks: false, // the request and its handler; statements in hooks still nest under the request
    recordExceptions: false,
    requestHook: (span: Span, request: any) => {
      span.setAttribute('url.path', pathOnly(request.url));
      span.updateName(`${request.method} ${request.routeOptions?.url ?? 'unmatched'}`);
    },
  } as any);
  fastify.setTracerProvider(provider);

  return {
    async shutdown() {
      fastify.disable();
      pg.disable();
      await provider.shutdown();
    },
  };
}
