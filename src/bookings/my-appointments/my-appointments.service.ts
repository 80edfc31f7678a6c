// The customer's own bookings: list them, and cancel one outside the store's cancellation window
// (by the merchant cancel's own path, cancelLocked).
import { inTransaction, type CustomerContext } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import { presentAppointment } from '../appointments/appointments.service.ts';
import { cancelLocked } from '../appointments/appointment-status.service.ts';
import * as repo from './my-appointments.repository.ts';
import type { MyAppointmentsQuery, MyAppointmentsResponse, MyCancelBody, MyCancelResponse } from './my-appointments.schemas.ts';

const MINUTE_MS = 60_000;

export async function listMyAppointments(ctx: CustomerContext, query: MyAppointmentsQuery): Promise<MyAppointmentsResponse> {
  const upcoming = query.upcoming ? ctx.clock.now().toISOString() : null;
  const rows = await repo.listMine(ctx.db, ctx.actor.customerId, query.store_id ?? null, upcoming);
  return { appointments: rows.map(presentAppointment) };
}

export async function cancelMyAppointment(ctx: CustomerContext, appointmentId: string, body: MyCancelBody): Promise<MyCancelResponse> {
  return inTransaction(ctx, async (tx) => {
    const now = ctx.clock.now();
    const a = await repo.lockMine(tx, ctx.actor.customerId, appointmentId);
    if (!a) throw notFound('Appointment');
    const live = a.status === 'pending_payment' || a.status === 'confirmed';
    // Inside the window (or after the start) only the shop can cancel; a window of 0 refuses only once started.
    if (live && now.getTime() >= Date.parse(a.starts_at) - a.cancellation_window_min * MINUTE_MS) {
      throw new AppError(
        'CANCELLATION_WINDOW',
        a.cancellation_window_min > 0
          ? `Within ${a.cancellation_window_min} minutes of the start the booking can only be cancelled by the shop`
          : 'The booking has started; only the shop can cancel it now',
      );
    }
    if (a.status === 'checked_in') throw new AppError('INVALID_TRANSITION', 'A checked-in booking can only be cancelled by the shop');
    // The merchant cancel's own path: the same audit row and appointment.cancelled event (cancelled_by: customer).
    return cancelLocked(tx, ctx, a, body.reason?.trim() || null);
  });
}
