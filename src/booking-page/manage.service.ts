// The manage link's operations: read the booking, cancel it, move it. The link's token (page-tokens.ts)
// names one appointment of one store and expires when the appointment ends; it is refused once the
// booking is cancelled, and a token for one appointment never acts on another (Cal.com #11660).
// Every change is a POST: a mail scanner that opens the link changes nothing. The token comes from
// the route (the Authorization header, read by page-tokens.ts bearerToken); the SQL is the repository's.
import type { CustomerActor } from '../platform/auth/actor.ts';
import { AppError, notFound } from '../platform/errors/app-error.ts';
import { rescheduleForPage } from '../bookings/booking-authority.ts';
import * as repo from './booking-page.repository.ts';
import { presentAppointment } from '../bookings/appointments/appointments.service.ts';
import { cancelMyAppointment } from '../bookings/my-appointments/my-appointments.service.ts';
import type { PageContext, PageReadContext } from './page-context.ts';
import { pageStore } from './booking-page.service.ts';
import type { ManageCancelBody, ManagedBookingResponse, ManageRescheduleResponse } from './booking-page.schemas.ts';

const LIVE = new Set(['pending_payment', 'confirmed']);

interface Managed {
  store: Awaited<ReturnType<typeof pageStore>>;
  row: repo.ManagedRow;
}

/** The booking the link names, in the page's store, still live; anything else is MANAGE_LINK_INVALID. */
async function managed(ctx: PageReadContext, slug: string, manageToken: string | undefined): Promise<Managed> {
  const deps = ctx.page;
  const store = await pageStore(ctx, slug);
  const claims = await deps.pageTokens.manage(manageToken);
  const invalid = (message: string) => new AppError('MANAGE_LINK_INVALID', message);
  if (claims.storeId !== store.id) throw invalid('This booking link is not valid or has expired');
  const row = await repo.managedAppointment(deps.db, store.id, claims.appointmentId);
  if (!row?.customer_id) throw invalid('This booking link is not valid or has expired');
  if (row.status === 'cancelled') throw invalid('This booking was cancelled, so its link no longer works');
  if (Date.parse(row.ends_at) <= deps.clock.now().getTime())
    throw invalid('This booking has ended, so its link no longer works');
  return { store, row };
}

function rules(m: Managed, nowMs: number) {
  const startMs = Date.parse(m.row.starts_at);
  const deadlineMs = startMs - m.store.cancellation_window_min * 60_000;
  const changeable = LIVE.has(m.row.status) && startMs > nowMs && deadlineMs > nowMs;
  return { can_cancel: changeable, can_reschedule: changeable, cancel_deadline: new Date(deadlineMs).toISOString() };
}

const customerOf = (m: Managed): CustomerActor => ({
  kind: 'customer',
  customerId: m.row.customer_id!,
  scopes: ['customer:read', 'customer:write'],
});

export async function getManagedBooking(
  ctx: PageReadContext,
  slug: string,
  manageToken: string | undefined,
): Promise<ManagedBookingResponse> {
  const m = await managed(ctx, slug, manageToken);
  return {
    appointment: presentAppointment(m.row),
    ...rules(m, ctx.page.clock.now().getTime()),
    service_name: m.row.service_name,
    unit_name: m.row.unit_name,
    variant_id: m.row.variant_id,
    addon_ids: m.row.addon_ids,
  };
}

async function reread(ctx: PageReadContext, storeId: string, id: string) {
  const row = await repo.appointmentIn(ctx.page.db, storeId, id);
  if (!row) throw notFound('Appointment');
  return presentAppointment(row);
}

/** Cancelled inside the rules of POST /me/appointments/{id}/cancel, by that same service. */
export async function cancelManagedBooking(
  ctx: PageContext,
  slug: string,
  manageToken: string | undefined,
  body: ManageCancelBody,
) {
  const m = await managed(ctx, slug, manageToken);
  await cancelMyAppointment(ctx.as(customerOf(m)), m.row.id, { reason: body.reason ?? null });
  return { appointment: await reread(ctx, m.store.id, m.row.id) };
}

/**
 * A new time through hold and confirm: the page hold (placed with createPageHold, same session)
 * becomes the booking's new time in one statement. The booking moves (same id, deposit and payment
 * kept); when the new time cannot be secured it stays as it was. The answer carries a fresh manage
 * link that lasts until the moved booking ends.
 */
export async function rescheduleManagedBooking(
  ctx: PageContext,
  slug: string,
  manageToken: string | undefined,
  holdId: string,
  sessionToken: string | undefined,
): Promise<ManageRescheduleResponse> {
  const m = await managed(ctx, slug, manageToken);
  const sessionId = await ctx.page.pageTokens.session(sessionToken);
  if (!sessionId) throw notFound('Hold');
  const customer = customerOf(m);
  const answer = await rescheduleForPage<{ appointment: ManageRescheduleResponse['appointment'] }>(
    ctx.as(customer),
    {
      store_id: m.store.id,
      appointment_id: m.row.id,
      hold_id: holdId,
      page_session: sessionId,
      customer_id: customer.customerId,
    },
    { exhausted: () => new AppError('SLOT_UNAVAILABLE', 'Someone else is booking that time; please choose another') },
  );
  const a = answer.appointment;
  return {
    appointment: a,
    manage_url: await ctx.page.manageUrl({
      appointmentId: a.id,
      storeId: m.store.id,
      slug: m.store.slug,
      endsAt: a.ends_at,
    }),
  };
}
