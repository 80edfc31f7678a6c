// GET /api/v1/bookings/appointments/search (searchAppointmentPeople): rate limited, merchant:read.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext } from '../../platform/context.ts';
import { routeLimit } from '../../platform/http/rate-limit.ts';
import { SearchQuery, SearchResponse } from './appointment-search.schemas.ts';
import { searchAppointmentPeople } from './appointment-search.service.ts';

export async function appointmentSearchRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/search',
    {
      config: { auth: auth.merchantRead(), rateLimit: routeLimit(app.deps.config.rateLimits.searchPerMinute) },
      schema: {
        operationId: 'searchAppointmentPeople',
        tags: ['Appointments'],
        summary: 'Appointment history grouped by person, most recently seen first',
        querystring: SearchQuery,
        response: { 200: SearchResponse },
      },
    },
    async (request) => searchAppointmentPeople(merchantContext(request), request.query),
  );
}
