// Marking a deposit paid: the shop (POST /api/v1/bookings/appointments/deposit-paid) or an
// operator (POST /admin/v1/stores/{storeId}/appointments/{appointmentId}/deposit-paid).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { auth } from '../../platform/auth/guard.ts';
import { adminContext, merchantContext } from '../../platform/context.ts';
import { Uuid } from '../../platform/http/schemas.ts';
import { markDepositPaid } from './deposits.service.ts';
import { DepositPaidResponse } from './deposits.writes.ts';

const summary =
  "Record that a pending_payment booking's deposit was paid (no money moves here): status confirmed, payment_status deposit_paid";

export async function depositsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/deposit-paid',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'markDepositPaid',
        tags: ['Online booking'],
        summary,
        body: Type.Object({ store_id: Uuid, appointment_id: Uuid }, { additionalProperties: false }),
        response: { 200: DepositPaidResponse },
      },
    },
    async (request) => {
      const ctx = merchantContext(request);
      return markDepositPaid(ctx, ctx.actor.storeId, request.body.appointment_id);
    },
  );
}

export async function depositsAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/stores/:storeId/appointments/:appointmentId/deposit-paid',
    {
      config: { auth: auth.admin() },
      schema: {
        operationId: 'adminMarkDepositPaid',
        tags: ['Operator'],
        summary,
        params: Type.Object({ storeId: Uuid, appointmentId: Uuid }, { additionalProperties: false }),
        response: { 200: DepositPaidResponse },
      },
    },
    async (request) => markDepositPaid(adminContext(request), request.params.storeId, request.params.appointmentId),
  );
}
