import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext } from '../../platform/context.ts';
import { RosterQuery, RosterResponse, SearchQuery, SearchResponse } from './roster.schemas.ts';
import { listRoster, searchRoster } from './roster.service.ts';

export async function rosterRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/list',
    {
      config: { auth: auth.merchantRead() },
      schema: {
        operationId: 'listCustomerRoster',
        tags: ['Customers'],
        summary: 'The store roster with lifecycle stage, visits, stamps, orders, net spend and marketing consent',
        querystring: RosterQuery,
        response: { 200: RosterResponse },
      },
    },
    async (request) => listRoster(merchantContext(request), request.query),
  );
  app.get(
    '/search',
    {
      config: { auth: auth.merchantRead() },
      schema: {
        operationId: 'searchCustomers',
        tags: ['Customers'],
        summary: "Find the store's customers by name, phone or email",
        querystring: SearchQuery,
        response: { 200: SearchResponse },
      },
    },
    async (request) => searchRoster(merchantContext(request), request.query),
  );
}
