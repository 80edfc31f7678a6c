// GET and POST /api/v1/notifications/preferences: the signed-in customer's per-store toggles.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../platform/auth/guard.ts';
import { customerContext } from '../platform/context.ts';
import { routeLimit } from '../platform/http/rate-limit.ts';
import { ListQuery, ListResponse, UpsertBody, UpsertResponse } from './preferences.schemas.ts';
import { listPreferences, savePreferences } from './preferences.service.ts';

export async function preferencesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '',
    {
      config: { auth: auth.customerRead(), rateLimit: routeLimit(app.deps.config.rateLimits.preferencesPerMinute) },
      schema: {
        operationId: 'listNotificationPreferences',
        tags: ['Notification preferences'],
        summary: 'One row per store the signed-in customer has interacted with',
        querystring: ListQuery,
        response: { 200: ListResponse },
      },
    },
    async (request) => listPreferences(customerContext(request)),
  );

  r.post(
    '',
    {
      config: { auth: auth.customerWrite() },
      schema: {
        operationId: 'upsertNotificationPreferences',
        tags: ['Notification preferences'],
        summary: "Save the signed-in customer's toggles for one store; omitted toggles are unchanged",
        body: UpsertBody,
        response: { 200: UpsertResponse },
      },
    },
    async (request) => savePreferences(customerContext(request), request.body),
  );
}
