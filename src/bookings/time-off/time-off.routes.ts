// Time-off entries (not shown in the spec; the diary shows them): create and delete.
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import {
  CreateTimeOffBody,
  CreateTimeOffResponse,
  DeleteTimeOffQuery,
  DeleteTimeOffResponse,
  TimeOffParams,
} from './time-off.schemas.ts';
import { createTimeOff, removeTimeOff } from './time-off.service.ts';

export async function timeOffRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Diary'] });

  route.post('', 'createTimeOff', auth.merchantWrite(), {
    summary: 'Put time off or a manual block on a unit; refused over live appointments unless override',
    schema: { body: CreateTimeOffBody, response: { 200: CreateTimeOffResponse } },
    handler: async (request) => createTimeOff(merchantContext(request), request.body),
  });

  route.delete('/:timeOffId', 'deleteTimeOff', auth.merchantWrite(), {
    summary: 'Remove a time-off entry; idempotent',
    schema: { params: TimeOffParams, querystring: DeleteTimeOffQuery, response: { 200: DeleteTimeOffResponse } },
    handler: async (request) => removeTimeOff(merchantContext(request), request.params.timeOffId),
  });
}
