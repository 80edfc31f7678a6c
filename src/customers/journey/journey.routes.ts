import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import { JourneyParams, JourneyQuery, JourneyResponse } from './journey.schemas.ts';
import { customerJourney } from './journey.service.ts';

export async function journeyRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Customers'] });
  route.get('/:customerId/journey', 'getCustomerJourney', auth.merchantRead(), {
    summary: "One newest-first feed of the customer's touchpoints at this store",
    schema: { params: JourneyParams, querystring: JourneyQuery, response: { 200: JourneyResponse } },
    handler: async (request) => customerJourney(merchantContext(request), request.params.customerId, request.query),
  });
}
