import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../platform/auth/guard.ts';
import { adminContext } from '../platform/context.ts';
import { ActivityBody, ActivityParams, ActivityResponse } from '../customers/activity/activity.schemas.ts';
import { recordActivity } from '../customers/activity/activity.service.ts';

/** POST /admin/v1/stores/{storeId}/activity: class bookings, stamps, orders and journey events. */
export async function activityAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/stores/:storeId/activity',
    {
      config: { auth: auth.admin() },
      schema: {
        operationId: 'adminRecordActivity',
        tags: ['Operator'],
        summary: 'Record a class booking, stamp, order or journey event for a customer at a store',
        description:
          'Creates the store relationship if needed and refreshes the roster aggregates in the same transaction. ' +
          'Sending an existing `id` replaces that record (status changes, refunds).',
        params: ActivityParams,
        body: ActivityBody,
        response: { 200: ActivityResponse },
      },
    },
    async (request) => recordActivity(adminContext(request), request.params.storeId, request.body),
  );
}
