// PATCH /api/v1/customers/{customerId}: save from the customer page.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext } from '../../platform/context.ts';
import { CustomerParams, EditBody, EditQuery, EditResponse } from './profile.schemas.ts';
import { editCustomer } from './profile.service.ts';

export async function profileRoutes(app: FastifyInstance) {
  app.withTypeProvider<TypeBoxTypeProvider>().patch(
    '/:customerId',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'updateCustomer',
        tags: ['Customers'],
        summary: 'Edit a customer the store has a relationship with',
        params: CustomerParams,
        querystring: EditQuery,
        body: EditBody,
        response: { 200: EditResponse },
      },
    },
    async (request) =>
      editCustomer(merchantContext(request), request.params.customerId, request.body, request.query.store_id),
  );
}
