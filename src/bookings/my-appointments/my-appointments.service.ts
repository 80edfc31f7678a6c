// The customer's own bookings: list them, and cancel one outside the store's cancellation window
// (by the merchant cancel's own path, in the database).
import type { CustomerContext } from '../../platform/context.ts';
import { oneStatementWrite } from '../../platform/one-statement.ts';
import { presentAppointment } from '../appointments/appointments.service.ts';
import * as repo from './my-appointments.repository.ts';
import { customerCancel } from './my-appointments.writes.ts';
import type {
  MyAppointmentsQuery,
  MyAppointmentsResponse,
  MyCancelBody,
  MyCancelResponse,
} from './my-appointments.schemas.ts';

export async function listMyAppointments(
  ctx: CustomerContext,
  query: MyAppointmentsQuery,
): Promise<MyAppointmentsResponse> {
  const upcoming = query.upcoming ? ctx.clock.now().toISOString() : null;
  const rows = await repo.listMine(ctx.db, ctx.actor.customerId, query.store_id ?? null, upcoming);
  return { appointments: rows.map(presentAppointment) };
}

/**
 * The customer's own cancel, one statement (bbo_customer_cancel, db/functions/customer-cancel.sql): their booking only,
 * outside the store's cancellation window, never a checked-in visit; then the merchant cancel's own
 * branch of bbo_appointment_status (the same status table, audit row and appointment.cancelled event,
 * with cancelled_by: customer).
 */
export async function cancelMyAppointment(
  ctx: CustomerContext,
  appointmentId: string,
  body: MyCancelBody,
): Promise<MyCancelResponse> {
  return oneStatementWrite(ctx, customerCancel, {
    customer_id: ctx.actor.customerId,
    appointment_id: appointmentId,
    reason: body.reason?.trim() || null,
  });
}
