// GET /api/v1/bookings/availability: the merchant's view or the customer's, by the token.
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { shopperContext } from '../../platform/context.ts';
import { AvailabilityQuery, AvailabilityResponse } from './availability.schemas.ts';
import { searchAvailability } from './availability.service.ts';

export async function availabilityRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Online booking'], config: { onlineCors: true } });
  route.get('', 'searchAvailability', auth.merchantOrCustomerRead(), {
    summary: 'Free start times for a service over store-local days (at most 90); every slot shown can be held',
    schema: { querystring: AvailabilityQuery, response: { 200: AvailabilityResponse } },
    handler: async (request, reply) => {
      // The answer comes serialised (kept answers are stored that way): sent as it is.
      const body = await searchAvailability(shopperContext(request), request.query);
      // (Bytes skip Fastify's serializer; the schema still documents them.)
      return reply.type('application/json; charset=utf-8').send(body as unknown as AvailabilityResponse);
    },
  });
}
