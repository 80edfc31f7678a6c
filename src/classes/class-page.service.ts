// The booking page's classes door (issue 44): the week's classes of a shop whose page is on, a
// signed-in customer's booking or waitlist place (bbo_class_book, source app, under the occurrence's
// lock as every other door), their own booking for the offer link's page, and the customer's side of
// accepting an offer (the route is POST /api/v1/classes/bookings/{id}/accept, shared with the desk).
import type { Clock } from '../platform/clock.ts';
import type { CustomerContext } from '../platform/context.ts';
import type { Database } from '../platform/db/port.ts';
import { notFound } from '../platform/errors/app-error.ts';
import { oneStatementWrite } from '../platform/one-statement.ts';
import type { ClassBookingRecord } from './class-bookings.schemas.ts';
import { customerEmail, ownBooking, pageStore, weekClasses } from './class-page.repository.ts';
import type { PageClassBooking, PageOccurrence } from './class-page.schemas.ts';
import { classBook, classBookingStatus } from './classes.writes.ts';

/** What the public read needs: no actor, the database and the clock. */
export interface PageReadDeps {
  db: Database;
  clock: Clock;
}

async function storeOf(db: Database, slug: string) {
  const store = await pageStore(db, slug);
  // The same 404 as the page's own for an unknown or disabled slug.
  if (!store) throw notFound('Booking page');
  return store;
}

export async function listWeek(
  deps: PageReadDeps,
  slug: string,
  from: string | null,
): Promise<{ timezone: string; from: string; to: string; occurrences: PageOccurrence[] }> {
  const store = await storeOf(deps.db, slug);
  return { timezone: store.timezone, ...(await weekClasses(deps.db, store, from, deps.clock.now())) };
}

export async function bookForCustomer(
  ctx: CustomerContext,
  slug: string,
  occurrenceId: string,
): Promise<{ booking: ClassBookingRecord }> {
  const store = await storeOf(ctx.db, slug);
  return oneStatementWrite(ctx, classBook, {
    store_id: store.id,
    occurrence_id: occurrenceId,
    customer_id: ctx.actor.customerId,
    guest_name: null,
    guest_email: null,
    source: 'app',
    customer_door: true,
  });
}

export async function readOwn(
  ctx: CustomerContext,
  slug: string,
  bookingId: string,
): Promise<{ booking: PageClassBooking }> {
  const store = await storeOf(ctx.db, slug);
  const own = await ownBooking(
    ctx.db,
    bookingId,
    ctx.actor.customerId,
    await customerEmail(ctx.db, ctx.actor.customerId),
    store.id,
  );
  // Another person's booking reads as one that does not exist.
  if (!own) throw notFound('Class booking');
  return { booking: own.booking };
}

/**
 * The customer accepts their own offer: the booking must be theirs (by customer_id, or a guest booking
 * made with the email they proved); anyone else's answers 404 and changes nothing. The write is the
 * desk's (bbo_class_booking_status, action accept), which checks the customer again under the lock.
 */
export async function acceptForCustomer(
  ctx: CustomerContext,
  bookingId: string,
): Promise<{ booking: ClassBookingRecord; noop: boolean }> {
  const own = await ownBooking(
    ctx.db,
    bookingId,
    ctx.actor.customerId,
    await customerEmail(ctx.db, ctx.actor.customerId),
    null,
  );
  if (!own) throw notFound('Class booking');
  return oneStatementWrite(ctx, classBookingStatus, {
    store_id: own.storeId,
    booking_id: bookingId,
    action: 'accept',
    customer_id: own.customerId,
  });
}
