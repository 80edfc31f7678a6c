// Builds the HTTP application. The process entry (server.ts) and the tests both call buildApp;
// only server.ts listens.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { Database } from './platform/db/port.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import { createTokenService, type TokenService } from './platform/auth/tokens.ts';
import { registerAuthGuard } from './platform/auth/guard.ts';
import { staffCredentials } from './staff/staff-auth.ts';
import { principalOf, type Actor } from './platform/auth/actor.ts';
import {
  clientErrorHandler,
  frameworkErrors,
  MAX_PARAM_LENGTH,
  registerErrorHandling,
} from './platform/errors/error-handler.ts';
import { addSharedSchemas, validatorCompiler } from './platform/http/validation.ts';
import { lazySerializers } from './platform/http/lazy-compile.ts';
import { genRequestId } from './platform/http/request-id.ts';
import { registerRateLimits } from './platform/http/rate-limit.ts';
import { registerBodyDeadline, serverTimeouts } from './platform/http/body-deadline.ts';
import { registerCompression } from './booking-page/compression.ts';
import { registerOpenApi } from './platform/http/openapi.ts';
import { webhooksDocument } from './events/event-payloads.ts';
import { BOOKING_EVENT_DATA } from './bookings/bookings.events.ts';
import { CUSTOMER_EVENT_DATA } from './customers/customers.events.ts';
import { NOTIFICATION_EVENT_DATA } from './notifications/notifications.events.ts';
import { WEBHOOK_EVENT_DATA } from './webhooks/webhooks.events.ts';
import { CLASS_EVENT_DATA } from './classes/classes.events.ts';
import { registerSecurityHeaders } from './platform/http/security-headers.ts';
import { healthRoutes } from './platform/http/health.routes.ts';
import { readIdempotencyClaim, REPLAY_HEADER } from './platform/idempotency.ts';
import type { RequestContext } from './platform/context.ts';
import { featureRoutes, sharedSchemas } from './routes.ts';
import { configureAvailabilityCache } from './bookings/availability/availability.cache.ts';
import type { ReadRouter } from './platform/db/read-routing.ts';
import { readsFor, registerWritePositions } from './platform/db/read-routing.plugin.ts';
import { Metrics } from './platform/metrics/metrics.ts';
import { registerMetrics } from './platform/metrics/metrics.plugin.ts';
import { cachedBacklog } from './platform/metrics/backlog.ts';
import { availabilityCache } from './bookings/availability/availability.cache.ts';

export interface AppDeps {
  config: Config;
  db: Database;
  /** The read replica's router (DATABASE_READ_URL); without one every read is on db. */
  reads?: ReadRouter | null;
  clock?: Clock;
  tokens?: TokenService;
  logger?: FastifyServerOptions['logger'];
  /** Extra routes registered before start (used by tests to probe platform behaviour). */
  extend?: (app: FastifyInstance) => Promise<void>;
}

export type App = FastifyInstance;

declare module 'fastify' {
  interface FastifyInstance {
    deps: { config: Config; db: Database; clock: Clock; tokens: TokenService };
    /** Requests received and not yet answered (a graceful shutdown waits for none before closing the database). */
    inFlight(): number;
    /** GET /metrics's registry (null when METRICS_TOKEN is unset): register pools and sources on it. */
    metrics: Metrics | null;
  }
}

/** The service's logger settings (tests reuse them with a stream of their own to read what is logged). */
export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    // Paths only: query strings can carry search terms (names, emails, phones).
    serializers: {
      req: (req: any) => ({ method: req.method, path: req.url.split('?')[0], remoteAddress: req.ip }),
      res: (res: any) => ({ statusCode: res.statusCode }),
      // Database errors carry the statement and its parameters (personal data): keep only what helps.
      err: (err: any) => ({ type: err?.name, message: err?.message, code: err?.code, stack: err?.stack }),
    },
  };
}

export async function buildApp(deps: AppDeps): Promise<App> {
  const clock = deps.clock ?? systemClock;
  const tokens = deps.tokens ?? createTokenService(deps.config);
  const { config, db } = deps;

  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config),
    genReqId: genRequestId,
    bodyLimit: config.bodyLimitBytes,
    // A body that never finishes is answered 408 (body-deadline.ts); forwarded addresses count only
    // from TRUST_PROXY's proxies (proxy.config.ts), for every per-address limit.
    ...serverTimeouts(config.bodyTimeoutMs),
    trustProxy: config.trustProxy ? [...config.trustProxy] : false,
    // During a graceful shutdown, requests already on an open connection are served normally (the
    // database closes only after they finish) rather than answered with a bare 503 outside the envelope.
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Errors raised before any hook runs, and requests Node cannot parse, answer in the envelope too.
    frameworkErrors,
    clientErrorHandler,
    ajv: { customOptions: { removeAdditional: false } },
    // Response serializers, like the validators, compile when their route first answers.
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('deps', { config, db, clock, tokens });
  configureAvailabilityCache(db, config.availabilityCacheMb * 1024 * 1024);
  // Answers read on the replica are kept apart, each checked against the snapshots of the node it was read on.
  if (deps.reads) configureAvailabilityCache(deps.reads.replicaReads, config.availabilityCacheMb * 1024 * 1024);
  app.setValidatorCompiler(validatorCompiler);
  // Only JSON bodies are accepted; anything else is refused with 415.
  app.removeContentTypeParser('text/plain');
  registerErrorHandling(app);
  // Before the guard and the rate limits, so their refusals carry the headers too.
  await registerSecurityHeaders(app);

  let inFlight = 0;
  const release = new WeakMap<object, () => void>();
  app.decorate('inFlight', () => inFlight);
  app.addHook('onRequest', async (request, reply) => {
    inFlight++;
    let counted = true;
    const done = () => {
      if (counted) inFlight--;
      counted = false;
    };
    release.set(request, done);
    // A connection that ends before the body has arrived (a client gone, the body deadline, a
    // shutdown) never reaches a handler, and may never see onResponse: it is no longer in flight.
    request.raw.once('close', () => {
      if (!request.raw.complete) done();
    });
    // A response that ends without finishing (a client that left an event stream, or left before
    // the answer) gets no onResponse either: without this, one console tab closed during the live
    // stream kept a shutdown waiting its full 15 s for a request that would never answer.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) done();
    });
    reply.header('x-request-id', request.id);
  });
  // onResponse also runs for a request whose client went away, once its handler has finished.
  app.addHook('onResponse', async (request) => {
    release.get(request)?.();
  });

  registerBodyDeadline(app);
  registerAuthGuard(app, tokens, config.adminToken, staffCredentials({ db, clock, config }));

  app.decorateRequest('requestContext', null);
  app.decorateRequest('context', function <A extends Actor>(this: any, actor: A): RequestContext<A> {
    if (!this.requestContext) {
      this.requestContext = {
        actor,
        db,
        reads: readsFor(deps.reads ?? null, this, actor),
        clock,
        requestId: this.id,
        log: this.log,
        idempotency: readIdempotencyClaim(this, principalOf(actor)),
        replayed: false,
      } satisfies RequestContext<A>;
    }
    return this.requestContext;
  });
  if (deps.reads) registerWritePositions(app, deps.reads);
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.requestContext?.replayed) reply.header(REPLAY_HEADER, 'true');
    return payload;
  });

  const redis = await registerRateLimits(app, {
    globalPerMinute: config.rateLimits.globalPerMinute,
    redisUrl: config.redisUrl,
  });
  if (redis) app.addHook('onClose', async () => void redis.quit().catch(() => redis.disconnect()));
  app.decorate('sharedRedis', redis);

  // GET /metrics and its one observation per request, when METRICS_TOKEN is set (src/platform/metrics/).
  const metrics = config.metrics.token ? new Metrics() : null;
  app.decorate('metrics', metrics);
  if (metrics) {
    const pool = (db as { pool?: unknown }).pool;
    if (pool && typeof pool === 'object' && 'totalCount' in pool)
      metrics.addPool('primary', pool as any, (db as { health?: any }).health);
    metrics.addCacheSource(() => availabilityCache(db)?.stats() ?? null);
    const reads = deps.reads;
    if (reads) {
      metrics.addCacheSource(() => availabilityCache(reads.replicaReads)?.stats() ?? null);
      metrics.setReplicaSource(() => {
        const s = reads.stats();
        return {
          up: s.replicaUp,
          lagSeconds: s.replicaLagMs === null ? null : s.replicaLagMs / 1000,
          replicaReads: s.replicaReads,
          primaryReads: s.primaryReads,
        };
      });
    }
    metrics.setBacklogSource(cachedBacklog(db, clock));
    registerMetrics(app, metrics, config.metrics.token!);
  }

  await registerCompression(app);
  // Each feature's event payload schemas, in one OpenAPI `webhooks` map (events/event-payloads.ts).
  const eventData = {
    ...BOOKING_EVENT_DATA,
    ...CUSTOMER_EVENT_DATA,
    ...NOTIFICATION_EVENT_DATA,
    ...WEBHOOK_EVENT_DATA,
    ...CLASS_EVENT_DATA,
  };
  await registerOpenApi(app, webhooksDocument(eventData));
  addSharedSchemas(app, ...sharedSchemas);
  await app.register(healthRoutes(db));
  await app.register(featureRoutes);
  if (deps.extend) await app.register(deps.extend);

  await app.ready();
  return app;
}
