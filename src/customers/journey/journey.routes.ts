import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext } from '../../platform/context.ts';
import { JourneyParams, JourneyQuery, JourneyResponse } from './journey.schemas.ts';
import { customerJourney } from './journey.service.ts';

export async function journeyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/:customerId/journey',
    {
      config: { auth: auth.merchantRead() },
      schema: {
        operationId: 'getCustomerJourney',
        tags: ['Customers'],
        summary: "One newest-first feed of the customer's touchpoints at this store",
        params: JourneyParams,
        querystring: JourneyQuery,
        response: { 200: JourneyResponse },
      },
    },
    async (request) => customerJourney(merchantContext(request), request.params.customerId, request.query),
  );
}
