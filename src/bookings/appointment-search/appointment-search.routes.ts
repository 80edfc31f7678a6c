// GET /api/v1/bookings/appointments/search (searchAppointmentPeople): rate limited, merchant:read.
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import { routeLimit } from '../../platform/http/rate-limit.ts';
import { SearchQuery, SearchResponse } from './appointment-search.schemas.ts';
import { searchAppointmentPeople } from './appointment-search.service.ts';

export async function appointmentSearchRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Appointments'] });

  route.get('/search', 'searchAppointmentPeople', auth.merchantRead(), {
    summary: 'Appointment history grouped by person, most recently seen first',
    config: { rateLimit: routeLimit(app.deps.config.rateLimits.searchPerMinute) },
    schema: { querystring: SearchQuery, response: { 200: SearchResponse } },
    handler: async (request) => searchAppointmentPeople(merchantContext(request), request.query),
  });
}
