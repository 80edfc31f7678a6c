// GET /api/v1/notifications/delivery: how messages and sign-in codes reach customers here (the
// console's warning when online booking cannot confirm). GET /api/v1/dev/mailbox: the development
// mailbox, registered only outside production (routes.ts), tagged "Development".
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext } from '../../platform/context.ts';
import { deliveryMode } from './delivery-mode.ts';
import { DevMailboxQuery, DevMailboxResponse, MessageDeliveryResponse } from './delivery.schemas.ts';
import { listDevMailbox } from './dev-mailbox.service.ts';

export async function deliveryRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const mode = deliveryMode(fastify.deps.config);
  app.get(
    '',
    {
      config: { auth: auth.merchantRead() },
      schema: {
        operationId: 'getMessageDelivery',
        tags: ['Notification preferences'],
        summary: 'How customer messages and booking page sign-in codes reach customers in this deployment',
        response: { 200: MessageDeliveryResponse },
      },
    },
    async () => ({ email: mode.email, sms: mode.sms, sign_in: mode.signIn, dev_mailbox: mode.devMailbox }),
  );
}

export async function devMailboxRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '',
    {
      config: { auth: auth.merchantRead() },
      schema: {
        operationId: 'listDevMailbox',
        tags: ['Development'],
        summary:
          'Development only (absent in production): what would have been sent, sign-in codes included (each until it expires)',
        querystring: DevMailboxQuery,
        response: { 200: DevMailboxResponse },
      },
    },
    async (request) => listDevMailbox(merchantContext(request), request.query),
  );
}
