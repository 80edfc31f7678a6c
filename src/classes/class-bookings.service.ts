// Class bookings: book (bbo_class_book), cancel, check in, no-show and accept
// (bbo_class_booking_status), each one statement that locks the occurrence first
// (db/functions/class-book.sql, class-booking-status.sql); reading one booking.
import type { MerchantContext } from '../platform/context.ts';
import { AppError, notFound } from '../platform/errors/app-error.ts';
import { oneStatementWrite } from '../platform/one-statement.ts';
import type { BookClassBody, ClassBookingRecord } from './class-bookings.schemas.ts';
import { findBooking } from './class-bookings.repository.ts';
import { classBook, classBookingStatus, type BookingAction } from './classes.writes.ts';

export type { BookingAction };

export async function book(
  ctx: MerchantContext,
  occurrenceId: string,
  body: BookClassBody,
): Promise<{ booking: ClassBookingRecord }> {
  const email = body.guest_email?.trim().toLowerCase() || null;
  if (!body.customer_id && !email)
    throw new AppError('GUEST_CONTACT_REQUIRED', 'A class booking needs customer_id, or guest_name and guest_email');
  if (!body.customer_id && !body.guest_name?.trim())
    throw new AppError('GUEST_CONTACT_REQUIRED', 'A guest booking needs guest_name with guest_email');
  return oneStatementWrite(ctx, classBook, {
    store_id: ctx.actor.storeId,
    occurrence_id: occurrenceId,
    customer_id: body.customer_id ?? null,
    // A customer's booking is theirs: guest fields sent beside customer_id are ignored, as an
    // appointment's create does (docs/decisions/classes.md).
    guest_name: body.customer_id ? null : (body.guest_name?.trim() ?? null),
    guest_email: body.customer_id ? null : email,
    source: body.source === 'drop-in' ? 'drop_in' : (body.source ?? 'staff'),
    customer_door: false,
  });
}

export async function changeStatus(
  ctx: MerchantContext,
  bookingId: string,
  action: BookingAction,
): Promise<{ booking: ClassBookingRecord; noop: boolean }> {
  return oneStatementWrite(ctx, classBookingStatus, {
    store_id: ctx.actor.storeId,
    booking_id: bookingId,
    action,
    customer_id: null,
  });
}

export async function getBooking(ctx: MerchantContext, bookingId: string): Promise<{ booking: ClassBookingRecord }> {
  const booking = await findBooking(ctx.db, ctx.actor.storeId, bookingId);
  if (!booking) throw notFound('Class booking');
  return { booking };
}
