import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext } from '../../platform/context.ts';
import { DiaryQuery, DiaryResponse } from './diary.schemas.ts';
import { readDiary } from './diary.service.ts';

export async function diaryRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('', {
    config: { auth: auth.merchantRead() },
    schema: {
      operationId: 'getDiary',
      tags: ['Diary'],
      summary: 'Units with their appointments, live holds and time-off for a store-local date range',
      description: 'from_date and to_date are YYYY-MM-DD in the store timezone; at most 62 days.',
      querystring: DiaryQuery,
      response: { 200: DiaryResponse },
    },
  }, async (request) => readDiary(merchantContext(request), request.query));
}
