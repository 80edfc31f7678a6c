// GET/PUT /api/v1/bookings/units/{unitId}/hours: a unit's working hours (merchant).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext } from '../../platform/context.ts';
import { HoursParams, HoursQuery, HoursResponse, PutHoursBody } from './hours.schemas.ts';
import { getHours, putHours } from './hours.service.ts';

const tags = ['Online booking'];

export async function hoursRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/:unitId/hours',
    {
      config: { auth: auth.merchantRead() },
      schema: {
        operationId: 'getUnitHours',
        tags,
        summary: "A unit's working hours (store-local)",
        params: HoursParams,
        querystring: HoursQuery,
        response: { 200: HoursResponse },
      },
    },
    async (request) => getHours(merchantContext(request), request.params.unitId),
  );

  app.put(
    '/:unitId/hours',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'putUnitHours',
        tags,
        summary: "Replace a unit's working hours: a week of intervals and dated exceptions (empty = closed)",
        params: HoursParams,
        body: PutHoursBody,
        response: { 200: HoursResponse },
      },
    },
    async (request) => putHours(merchantContext(request), request.params.unitId, request.body),
  );
}
