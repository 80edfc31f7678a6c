// GET/POST /api/v1/bookings/services, PATCH /api/v1/bookings/services/{serviceId}.
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import {
  CreateBody,
  ListQuery,
  ServiceListResponse,
  ServiceParams,
  ServiceResponse,
  UpdateBody,
} from './services.schemas.ts';
import * as services from './services.service.ts';

const tags = ['Services'];

export async function servicesRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags });
  route.get('', 'listServices', auth.merchantRead(), {
    summary: 'List services with their variants and add-ons',
    description: 'Ordered by sort, then name. Archived services are included only with include_archived=true.',
    schema: { querystring: ListQuery, response: { 200: ServiceListResponse } },
    handler: (request) => services.listServices(merchantContext(request), request.query.include_archived ?? false),
  });

  route.post('', 'createService', auth.merchantWrite(), {
    summary: 'Create a service',
    description:
      'Variants and add-ons may be created with the service (nested arrays). With client_token, a retry (also a concurrent one) returns the service the first call created. deposit_policy is stored and never returned.',
    schema: { body: CreateBody, response: { 200: ServiceResponse } },
    handler: (request) => services.createService(merchantContext(request), request.body),
  });

  route.patch('/:serviceId', 'updateService', auth.merchantWrite(), {
    summary: 'Update, archive or restore a service, and write its variants and add-ons',
    description: [
      'Partial update: omitted fields are unchanged. is_active false archives the service (never deletes it); true restores it.',
      'party_min and party_max are checked together, a changed one against the stored other.',
      'variants / addons: an item with id updates that item of this service (an id of anything else is refused, 400); an item without id creates one. Items not listed are left unchanged; archive one with is_active false.',
      'A price or duration change affects future bookings only: booked appointments keep their snapshotted price.',
    ].join('\n\n'),
    schema: { params: ServiceParams, body: UpdateBody, response: { 200: ServiceResponse } },
    handler: (request) => services.updateService(merchantContext(request), request.params.serviceId, request.body),
  });
}
