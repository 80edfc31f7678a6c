import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import {
  AppointmentDetailResponse,
  AppointmentParams,
  AppointmentQuery,
  DiaryQuery,
  DiaryResponse,
} from './diary.schemas.ts';
import { readAppointment, readDiary } from './diary.service.ts';

export async function diaryRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Diary'] });

  route.get('', 'getDiary', auth.merchantRead(), {
    summary: 'Units with their appointments, live holds and time-off for a store-local date range',
    description: 'from_date and to_date are YYYY-MM-DD in the store timezone; at most 62 days.',
    schema: { querystring: DiaryQuery, response: { 200: DiaryResponse } },
    handler: async (request, reply) => {
      // The database built the answer (diary.repository.ts): sent as it is, past Fastify's serializer;
      // the schema still documents it.
      const body = await readDiary(merchantContext(request), request.query);
      return reply.type('application/json; charset=utf-8').send(body as unknown as DiaryResponse);
    },
  });
}

/** GET /api/v1/bookings/appointments/{appointmentId} (registered under the appointments prefix in routes.ts). */
export async function appointmentReadRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Appointments'] });

  route.get('/:appointmentId', 'getAppointment', auth.merchantRead(), {
    summary: 'One appointment of the store with its diary fields',
    description:
      "The diary appointment's fields plus store_id, unit_id and source. Another store's appointment answers 404 NOT_FOUND, like a missing one. store_id in the query is optional (the token's store wins).",
    schema: { params: AppointmentParams, querystring: AppointmentQuery, response: { 200: AppointmentDetailResponse } },
    handler: async (request) => readAppointment(merchantContext(request), request.params.appointmentId),
  });
}
