// POST /api/v1/bookings/appointments[/cancel|/check-in|/complete|/no-show|/reschedule|/settle].
// Thin: schema in, one service call, schema out.
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes, type RoutePath } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import * as schemas from './appointments.schemas.ts';
import { createAppointment, rescheduleAppointment } from './appointments.service.ts';
import { cancel, checkIn, complete, noShow } from './appointment-status.service.ts';
import { settle } from './settle.service.ts';

const tags = ['Appointments'];

export async function appointmentsRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags });
  route.post('', 'createAppointment', auth.merchantWrite(), {
    summary: 'Book an appointment as the merchant (quick-add) through the booking authority',
    schema: { body: schemas.CreateBody, response: { 200: schemas.CreateResponse } },
    handler: (request) => createAppointment(merchantContext(request), request.body),
  });

  route.post('/cancel', 'cancelAppointment', auth.merchantWrite(), {
    summary: 'Cancel an appointment: its block is released, the row and reason are kept',
    schema: { body: schemas.CancelBody, response: { 200: schemas.CancelResponse } },
    handler: (request) => cancel(merchantContext(request), request.body),
  });

  const statusRoutes: Array<{ path: RoutePath; operationId: string; summary: string; run: typeof checkIn }> = [
    { path: '/check-in', operationId: 'checkInAppointment', summary: 'Check the guest in', run: checkIn },
    { path: '/complete', operationId: 'completeAppointment', summary: 'Mark the appointment completed', run: complete },
    {
      path: '/no-show',
      operationId: 'markAppointmentNoShow',
      summary: 'Mark a due appointment as a no-show',
      run: noShow,
    },
  ];
  for (const status of statusRoutes) {
    route.post(status.path, status.operationId, auth.merchantWrite(), {
      summary: status.summary,
      schema: { body: schemas.StatusBody, response: { 200: schemas.StatusResponse } },
      handler: (request) => status.run(merchantContext(request), request.body),
    });
  }

  route.post('/reschedule', 'rescheduleAppointment', auth.merchantWrite(), {
    summary: 'Move an appointment in time or unit; the new slot is secured before the old is released',
    schema: { body: schemas.RescheduleBody, response: { 200: schemas.RescheduleResponse } },
    handler: (request) => rescheduleAppointment(merchantContext(request), request.body),
  });

  route.post(
    '/settle',
    'settleAppointment',
    auth.merchantWrite({ entitlements: ['can_use_bookings'], permissions: ['can_process_payments'] }),
    {
      summary: 'Record the outstanding balance as taken outside the platform (cash or card machine)',
      schema: { body: schemas.SettleBody, response: { 200: schemas.SettleResponse } },
      handler: (request) => settle(merchantContext(request), request.body),
    },
  );
}
