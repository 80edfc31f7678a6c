// GET and POST /api/v1/notifications/preferences: the signed-in customer's per-store toggles.
import type { FastifyInstance } from 'fastify';
import { auth } from '../platform/auth/guard.ts';
import { declareRoutes } from '../platform/http/route.ts';
import { customerContext } from '../platform/context.ts';
import { routeLimit } from '../platform/http/rate-limit.ts';
import { ListQuery, ListResponse, UpsertBody, UpsertResponse } from './preferences.schemas.ts';
import { listPreferences, savePreferences } from './preferences.service.ts';

export async function preferencesRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Notification preferences'] });

  route.get('', 'listNotificationPreferences', auth.customerRead(), {
    summary: 'One row per store the signed-in customer has interacted with',
    config: { rateLimit: routeLimit(app.deps.config.rateLimits.preferencesPerMinute) },
    schema: { querystring: ListQuery, response: { 200: ListResponse } },
    handler: async (request) => listPreferences(customerContext(request)),
  });

  route.post('', 'upsertNotificationPreferences', auth.customerWrite(), {
    summary: "Save the signed-in customer's toggles for one store; omitted toggles are unchanged",
    schema: { body: UpsertBody, response: { 200: UpsertResponse } },
    handler: async (request) => savePreferences(customerContext(request), request.body),
  });
}
