// Time-off entries (not shown in the spec; the diary shows them): create and delete.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext } from '../../platform/context.ts';
import {
  CreateTimeOffBody,
  CreateTimeOffResponse,
  DeleteTimeOffQuery,
  DeleteTimeOffResponse,
  TimeOffParams,
} from './time-off.schemas.ts';
import { createTimeOff, removeTimeOff } from './time-off.service.ts';

export async function timeOffRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'createTimeOff',
        tags: ['Diary'],
        summary: 'Put time off or a manual block on a unit; refused over live appointments unless override',
        body: CreateTimeOffBody,
        response: { 200: CreateTimeOffResponse },
      },
    },
    async (request) => createTimeOff(merchantContext(request), request.body),
  );

  app.delete(
    '/:timeOffId',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'deleteTimeOff',
        tags: ['Diary'],
        summary: 'Remove a time-off entry; idempotent',
        params: TimeOffParams,
        querystring: DeleteTimeOffQuery,
        response: { 200: DeleteTimeOffResponse },
      },
    },
    async (request) => removeTimeOff(merchantContext(request), request.params.timeOffId),
  );
}
