// GET/POST /api/v1/bookings/service-periods, PATCH/DELETE /api/v1/bookings/service-periods/{periodId}.
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import {
  CreateBody,
  DeleteQuery,
  DeleteResponse,
  ListQuery,
  PeriodListResponse,
  PeriodParams,
  PeriodResponse,
  UpdateBody,
} from './service-periods.schemas.ts';
import * as periods from './service-periods.service.ts';

const tags = ['Service periods'];

export async function servicePeriodsRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags });
  route.get('', 'listServicePeriods', auth.merchantRead(), {
    summary: 'List service periods',
    description: 'Ordered by sort, then name. Disabled periods are included only with include_archived=true.',
    schema: { querystring: ListQuery, response: { 200: PeriodListResponse } },
    handler: (request) => periods.listServicePeriods(merchantContext(request), request.query.include_archived ?? false),
  });

  route.post('', 'createServicePeriod', auth.merchantWrite(), {
    summary: 'Create a service period',
    description: 'With client_token, a retry (also a concurrent one) returns the period the first call created.',
    schema: { body: CreateBody, response: { 200: PeriodResponse } },
    handler: (request) => periods.createServicePeriod(merchantContext(request), request.body),
  });

  route.patch('/:periodId', 'updateServicePeriod', auth.merchantWrite(), {
    summary: 'Update a service period',
    description:
      'Partial update: omitted fields are unchanged; `week`, when sent, replaces the whole week. is_active false disables without deleting.',
    schema: { params: PeriodParams, body: UpdateBody, response: { 200: PeriodResponse } },
    handler: (request) => periods.updateServicePeriod(merchantContext(request), request.params.periodId, request.body),
  });

  route.delete('/:periodId', 'deleteServicePeriod', auth.merchantWrite(), {
    summary: 'Delete a service period',
    description:
      "Hard delete; idempotent: removed is false when nothing was there. Another store's period reads like a missing one (removed: false) and is left untouched.",
    schema: { params: PeriodParams, querystring: DeleteQuery, response: { 200: DeleteResponse } },
    handler: (request) => periods.deleteServicePeriod(merchantContext(request), request.params.periodId),
  });
}
