// Headers every answer carries (OWASP REST Security Cheat Sheet, "Security headers"):
// - helmet's set, with a Content-Security-Policy for JSON (nothing may load, nothing may frame it);
//   the docs page (/docs) replaces it with swagger-ui's own static policy (openapi.ts, staticCSP),
//   and a future HTML surface (the console) sets its own policy the same way, per route;
// - `Cache-Control: no-store` on every answer whose route did not choose its own, so no shared or
//   browser cache keeps store or customer data. Caching is opted into, never out of: a file meant to
//   be cached (the pages' hashed assets, embed.js, the favicon) or a feed that wants revalidation
//   says so itself, and a new route that says nothing is never cached (a public route that answers
//   with a person's data, like the booking page's API, needs nothing of its own);
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
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
