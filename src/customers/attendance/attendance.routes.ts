import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import { AttendanceParams, AttendanceQuery, AttendanceResponse } from './attendance.schemas.ts';
import { listAttendance } from './attendance.service.ts';

export async function attendanceRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Customers'] });
  route.get('/:customerId/attendance', 'listCustomerAttendance', auth.merchantRead({ entitlements: ['classes'] }), {
    summary: "A customer's class bookings at this store, newest first",
    schema: { params: AttendanceParams, querystring: AttendanceQuery, response: { 200: AttendanceResponse } },
    handler: async (request) => listAttendance(merchantContext(request), request.params.customerId, request.query),
  });
}
