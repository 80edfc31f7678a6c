// GET /metrics and the one observation each answered request costs. Registered only when
// METRICS_TOKEN is set; without it there is no route (404) and no hook.
import type { FastifyInstance } from 'fastify';
import { auth } from '../auth/guard.ts';
import type { Metrics } from './metrics.ts';

export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string): void {
  // onResponse runs after the answer is sent: the observation is off the request's own path.
  // routeOptions.url is the route template ('/api/v1/customers/:id'); undefined when nothing matched.
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });

  app.get(
    '/metrics',
    // Hidden from the OpenAPI document like /healthz: an operator's surface, not the API's.
    { config: { auth: auth.staticToken(token) }, schema: { hide: true } as any },
    async (_request, reply) => {
      const { contentType, body } = await metrics.scrape();
      return reply.type(contentType).send(body);
    },
  );
}
