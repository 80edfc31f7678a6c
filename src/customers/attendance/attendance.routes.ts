import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext } from '../../platform/context.ts';
import { AttendanceParams, AttendanceQuery, AttendanceResponse } from './attendance.schemas.ts';
import { listAttendance } from './attendance.service.ts';

export async function attendanceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/:customerId/attendance',
    {
      config: { auth: auth.merchantRead({ entitlements: ['classes'] }) },
      schema: {
        operationId: 'listCustomerAttendance',
        tags: ['Customers'],
        summary: "A customer's class bookings at this store, newest first",
        params: AttendanceParams,
        querystring: AttendanceQuery,
        response: { 200: AttendanceResponse },
      },
    },
    async (request) => listAttendance(merchantContext(request), request.params.customerId, request.query),
  );
}
