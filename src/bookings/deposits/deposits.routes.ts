// Marking a deposit paid: the shop (POST /api/v1/bookings/appointments/deposit-paid) or an
// operator (POST /admin/v1/stores/{storeId}/appointments/{appointmentId}/deposit-paid).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { adminContext, merchantContext } from '../../platform/context.ts';
import { Uuid } from '../../platform/http/schemas.ts';
import { markDepositPaid } from './deposits.service.ts';
import { DepositPaidResponse } from './deposits.writes.ts';

const summary =
  "Record that a pending_payment booking's deposit was paid (no money moves here): status confirmed, payment_status deposit_paid";

export async function depositsRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Online booking'] });
  route.post('/deposit-paid', 'markDepositPaid', auth.merchantWrite(), {
    summary,
    schema: {
      body: Type.Object({ store_id: Uuid, appointment_id: Uuid }, { additionalProperties: false }),
      response: { 200: DepositPaidResponse },
    },
    handler: async (request) => {
      const ctx = merchantContext(request);
      return markDepositPaid(ctx, ctx.actor.storeId, request.body.appointment_id);
    },
  });
}

export async function depositsAdminRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Operator'] });
  route.post('/stores/:storeId/appointments/:appointmentId/deposit-paid', 'adminMarkDepositPaid', auth.admin(), {
    summary,
    schema: {
      params: Type.Object({ storeId: Uuid, appointmentId: Uuid }, { additionalProperties: false }),
      response: { 200: DepositPaidResponse },
    },
    handler: async (request) =>
      markDepositPaid(adminContext(request), request.params.storeId, request.params.appointmentId),
  });
}
