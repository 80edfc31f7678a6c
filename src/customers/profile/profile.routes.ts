// PATCH /api/v1/customers/{customerId}: save from the customer page.
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import { CustomerParams, EditBody, EditQuery, EditResponse } from './profile.schemas.ts';
import { editCustomer } from './profile.service.ts';

export async function profileRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Customers'] });
  route.patch('/:customerId', 'updateCustomer', auth.merchantWrite(), {
    summary: 'Edit a customer the store has a relationship with',
    schema: { params: CustomerParams, querystring: EditQuery, body: EditBody, response: { 200: EditResponse } },
    handler: async (request) =>
      editCustomer(merchantContext(request), request.params.customerId, request.body, request.query.store_id),
  });
}
