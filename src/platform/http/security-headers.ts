// Headers every answer carries (OWASP REST Security Cheat Sheet, "Security headers"):
// - helmet's set, with a Content-Security-Policy for JSON (nothing may load, nothing may frame it);
//   the docs page (/docs) replaces it with swagger-ui's own static policy (openapi.ts, staticCSP),
//   and a future HTML surface (the console) sets its own policy the same way, per route;
// - `Cache-Control: no-store` on every answer that is not public (authenticated routes, and errors
//   of unknown routes), so no shared or browser cache keeps store or customer data;
// - no framework fingerprint: Fastify sends no Server or X-Powered-By header, and no error body
//   names it (error-handler.ts).
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** Set on answers sent before any hook runs (error-handler.ts frameworkErrors and clientErrorHandler). */
export const BASELINE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
} as const;

export async function registerSecurityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] },
    },
    frameguard: { action: 'deny' },
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.auth?.kind !== 'public' && !request.url.startsWith('/docs')) {
      reply.header('cache-control', 'no-store');
    }
  });
}

/**
 * For a plugin of public routes that still answer with a person's data (the booking page's API: its
 * tokens, a customer's booking or class place): nothing of it is kept by a shared or browser cache.
 * `app.addHook('onSend', noStore)` inside the plugin.
 */
export async function noStore(
  _request: unknown,
  reply: { header(name: string, value: string): unknown },
  payload: unknown,
) {
  reply.header('cache-control', 'no-store');
  return payload;
}
