// GET /api/v1/me/appointments and POST /api/v1/me/appointments/{appointmentId}/cancel (customer).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../../platform/auth/guard.ts';
import { customerContext } from '../../platform/context.ts';
import {
  MyAppointmentParams,
  MyAppointmentsQuery,
  MyAppointmentsResponse,
  MyCancelBody,
  MyCancelResponse,
} from './my-appointments.schemas.ts';
import { cancelMyAppointment, listMyAppointments } from './my-appointments.service.ts';

const tags = ['Online booking'];

export async function myAppointmentsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '',
    {
      config: { auth: auth.customerRead(), onlineCors: true },
      schema: {
        operationId: 'listMyAppointments',
        tags,
        summary: "The signed-in customer's own bookings",
        querystring: MyAppointmentsQuery,
        response: { 200: MyAppointmentsResponse },
      },
    },
    async (request) => listMyAppointments(customerContext(request), request.query),
  );
  app.post(
    '/:appointmentId/cancel',
    {
      config: { auth: auth.customerWrite(), onlineCors: true },
      schema: {
        operationId: 'cancelMyAppointment',
        tags,
        summary: "Cancel one of the customer's own bookings; refused inside the store's cancellation window",
        params: MyAppointmentParams,
        body: MyCancelBody,
        response: { 200: MyCancelResponse },
      },
    },
    async (request) => cancelMyAppointment(customerContext(request), request.params.appointmentId, request.body ?? {}),
  );
}
