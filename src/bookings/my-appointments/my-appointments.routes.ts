// GET /api/v1/me/appointments and POST /api/v1/me/appointments/{appointmentId}/cancel (customer).
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { customerContext } from '../../platform/context.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import {
  MyAppointmentParams,
  MyAppointmentsQuery,
  MyAppointmentsResponse,
  MyCancelBody,
  MyCancelResponse,
} from './my-appointments.schemas.ts';
import { cancelMyAppointment, listMyAppointments } from './my-appointments.service.ts';

export async function myAppointmentsRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Online booking'], config: { onlineCors: true } });
  route.get('', 'listMyAppointments', auth.customerRead(), {
    summary: "The signed-in customer's own bookings",
    schema: { querystring: MyAppointmentsQuery, response: { 200: MyAppointmentsResponse } },
    handler: async (request) => listMyAppointments(customerContext(request), request.query),
  });
  route.post('/:appointmentId/cancel', 'cancelMyAppointment', auth.customerWrite(), {
    summary: "Cancel one of the customer's own bookings; refused inside the store's cancellation window",
    schema: { params: MyAppointmentParams, body: MyCancelBody, response: { 200: MyCancelResponse } },
    handler: async (request) =>
      cancelMyAppointment(customerContext(request), request.params.appointmentId, request.body ?? {}),
  });
}
