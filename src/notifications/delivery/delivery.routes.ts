// GET /api/v1/notifications/delivery: how messages and sign-in codes reach customers here (the
// console's warning when online booking cannot confirm). GET /api/v1/dev/mailbox: the development
// mailbox, registered only outside production (routes.ts), tagged "Development".
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import { deliveryMode } from './delivery-mode.ts';
import { DevMailboxQuery, DevMailboxResponse, MessageDeliveryResponse } from './delivery.schemas.ts';
import { listDevMailbox } from './dev-mailbox.service.ts';

export async function deliveryRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Notification preferences'] });
  const mode = deliveryMode(app.deps.config);
  route.get('', 'getMessageDelivery', auth.merchantRead(), {
    summary: 'How customer messages and booking page sign-in codes reach customers in this deployment',
    schema: { response: { 200: MessageDeliveryResponse } },
    handler: async () => ({ email: mode.email, sms: mode.sms, sign_in: mode.signIn, dev_mailbox: mode.devMailbox }),
  });
}

export async function devMailboxRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Development'] });
  route.get('', 'listDevMailbox', auth.merchantRead(), {
    summary:
      'Development only (absent in production): what would have been sent, sign-in codes included (each until it expires)',
    schema: { querystring: DevMailboxQuery, response: { 200: DevMailboxResponse } },
    handler: async (request) => listDevMailbox(merchantContext(request), request.query),
  });
}
