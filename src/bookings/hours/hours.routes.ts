// GET/PUT /api/v1/bookings/units/{unitId}/hours: a unit's working hours (merchant).
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import { HoursParams, HoursQuery, HoursResponse, PutHoursBody } from './hours.schemas.ts';
import { getHours, putHours } from './hours.service.ts';

const tags = ['Online booking'];

export async function hoursRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags });

  route.get('/:unitId/hours', 'getUnitHours', auth.merchantRead(), {
    summary: "A unit's working hours (store-local)",
    schema: { params: HoursParams, querystring: HoursQuery, response: { 200: HoursResponse } },
    handler: async (request) => getHours(merchantContext(request), request.params.unitId),
  });

  route.put('/:unitId/hours', 'putUnitHours', auth.merchantWrite(), {
    summary: "Replace a unit's working hours: a week of intervals and dated exceptions (empty = closed)",
    schema: { params: HoursParams, body: PutHoursBody, response: { 200: HoursResponse } },
    handler: async (request) => putHours(merchantContext(request), request.params.unitId, request.body),
  });
}
