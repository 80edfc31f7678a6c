import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import { RosterQuery, RosterResponse, SearchQuery, SearchResponse } from './roster.schemas.ts';
import { listRoster, searchRoster } from './roster.service.ts';

export async function rosterRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Customers'] });
  route.get('/list', 'listCustomerRoster', auth.merchantRead(), {
    summary: 'The store roster with lifecycle stage, visits, stamps, orders, net spend and marketing consent',
    schema: { querystring: RosterQuery, response: { 200: RosterResponse } },
    handler: async (request) => listRoster(merchantContext(request), request.query),
  });
  route.get('/search', 'searchCustomers', auth.merchantRead(), {
    summary: "Find the store's customers by name, phone or email",
    schema: { querystring: SearchQuery, response: { 200: SearchResponse } },
    handler: async (request) => searchRoster(merchantContext(request), request.query),
  });
}
