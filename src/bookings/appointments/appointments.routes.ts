// POST /api/v1/bookings/appointments[/cancel|/check-in|/complete|/no-show|/reschedule|/settle].
// Thin: schema in, one service call, schema out.
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext } from '../../platform/context.ts';
import * as schemas from './appointments.schemas.ts';
import { createAppointment, rescheduleAppointment } from './appointments.service.ts';
import { cancel, checkIn, complete, noShow } from './appointment-status.service.ts';
import { settle } from './settle.service.ts';

const tags = ['Appointments'];

export async function appointmentsRoutes(app: FastifyInstance) {
  app.post<{ Body: schemas.CreateBody }>(
    '',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'createAppointment',
        summary: 'Book an appointment as the merchant (quick-add) through the booking authority',
        tags,
        body: schemas.CreateBody,
        response: { 200: schemas.CreateResponse },
      },
    },
    (request) => createAppointment(merchantContext(request), request.body),
  );

  app.post<{ Body: schemas.CancelBody }>(
    '/cancel',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'cancelAppointment',
        summary: 'Cancel an appointment: its block is released, the row and reason are kept',
        tags,
        body: schemas.CancelBody,
        response: { 200: schemas.CancelResponse },
      },
    },
    (request) => cancel(merchantContext(request), request.body),
  );

  const statusRoutes = [
    { path: '/check-in', operationId: 'checkInAppointment', summary: 'Check the guest in', run: checkIn },
    { path: '/complete', operationId: 'completeAppointment', summary: 'Mark the appointment completed', run: complete },
    {
      path: '/no-show',
      operationId: 'markAppointmentNoShow',
      summary: 'Mark a due appointment as a no-show',
      run: noShow,
    },
  ];
  for (const route of statusRoutes) {
    app.post<{ Body: schemas.StatusBody }>(
      route.path,
      {
        config: { auth: auth.merchantWrite() },
        schema: {
          operationId: route.operationId,
          summary: route.summary,
          tags,
          body: schemas.StatusBody,
          response: { 200: schemas.StatusResponse },
        },
      },
      (request) => route.run(merchantContext(request), request.body),
    );
  }

  app.post<{ Body: schemas.RescheduleBody }>(
    '/reschedule',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'rescheduleAppointment',
        summary: 'Move an appointment in time or unit; the new slot is secured before the old is released',
        tags,
        body: schemas.RescheduleBody,
        response: { 200: schemas.RescheduleResponse },
      },
    },
    (request) => rescheduleAppointment(merchantContext(request), request.body),
  );

  app.post<{ Body: schemas.SettleBody }>(
    '/settle',
    {
      config: {
        auth: auth.merchantWrite({ entitlements: ['can_use_bookings'], permissions: ['can_process_payments'] }),
      },
      schema: {
        operationId: 'settleAppointment',
        summary: 'Record the outstanding balance as taken outside the platform (cash or card machine)',
        tags,
        body: schemas.SettleBody,
        response: { 200: schemas.SettleResponse },
      },
    },
    (request) => settle(merchantContext(request), request.body),
  );
}
