// Booking and moving appointments as the merchant. Both go through the booking authority, which
// alone writes a unit's occupied time. Each is one statement, a database function that runs the
// rules (who is reachable, what the price is, the cancellation window), the change, the audit row,
// the event and the idempotency record in order (docs/architecture.md, "One-statement writes").
import type { MerchantContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { bookForMerchant, moveForMerchant, type AppointmentRow } from '../booking-authority.ts';
import { outstandingOf } from './appointment-money.ts';
import { guestPhone } from '../../platform/uk-mobile.ts';
import type {
  Appointment,
  CreateBody,
  CreateResponse,
  RescheduleBody,
  RescheduleResponse,
} from './appointments.schemas.ts';

/** Deadlocks that outlast the retries are reported as the conflict they are, never as a 500. */
const slotContended = () => new AppError('SLOT_TAKEN', 'The unit is contended for that time; retry');

export function presentAppointment(a: AppointmentRow): Appointment {
  return {
    id: a.id,
    store_id: a.store_id,
    unit_id: a.unit_id,
    service_id: a.service_id,
    customer_id: a.customer_id,
    guest_name: a.guest_name,
    guest_email: a.guest_email,
    guest_phone: a.guest_phone,
    starts_at: a.starts_at,
    ends_at: a.ends_at,
    status: a.status,
    payment_status: a.payment_status,
    price_pence: a.price_pence,
    deposit_pence: a.deposit_pence,
    balance_pence: outstandingOf(a),
    currency: a.currency,
    party_size: a.party_size,
    children: a.children,
    high_chairs: a.high_chairs,
    source: a.source,
    is_override: a.is_override,
  };
}

/** Blank optional text is no text. */
function trimmed(value: string | null | undefined): string | null {
  return value?.trim() || null;
}

/**
 * One statement (bookForMerchant, db/functions/merchant-book.sql): the checks below the contact
 * rule run in the database in this order: Idempotency-Key claim; store; service (unknown, then
 * archived, then party size); customer (unknown, then erased); times (INVALID_TIME_RANGE, then
 * APPOINTMENT_TOO_LONG); unit (unknown, locked);
 * client-token reuse; unit bookable; holds and time-off; the exclusion constraint (SLOT_TAKEN).
 */
export async function createAppointment(ctx: MerchantContext, body: CreateBody): Promise<CreateResponse> {
  const customerId = body.customer_id ?? null;
  const guestEmail = body.guest_email ? body.guest_email.trim().toLowerCase() : null;
  // Someone must be reachable: an account, or a guest with an email.
  if (!customerId && !guestEmail) {
    throw new AppError('GUEST_CONTACT_REQUIRED', 'A booking needs customer_id or guest_email');
  }
  return bookForMerchant(
    ctx,
    {
      store_id: ctx.actor.storeId,
      unit_id: body.unit_id,
      service_id: body.service_id ?? null,
      customer_id: customerId,
      guest_name: trimmed(body.guest_name),
      guest_email: guestEmail,
      // A UK mobile in any spelling is stored as E.164; any other number as typed, trimmed.
      guest_phone: guestPhone(body.guest_phone),
      party_size: body.party_size ?? 1,
      // Snapshotted from the service when not given.
      price_pence: body.price_pence ?? null,
      starts_at: body.starts_at,
      ends_at: body.ends_at,
      block_starts_at: body.block_starts_at ?? null,
      block_ends_at: body.block_ends_at ?? null,
      override: body.override ?? false,
      client_token: body.client_token ?? null,
      created_by: ctx.actor.userId,
    },
    { exhausted: slotContended },
  );
}

/**
 * One statement (moveForMerchant, db/functions/merchant-reschedule.sql), checks in this order:
 * Idempotency-Key claim; the appointment (locked); the target unit; the status (cancelled, completed
 * and no-show cannot move); the store's cancellation window on the CURRENT start unless override
 * (a window of 0 never refuses); times (INVALID_TIME_RANGE, APPOINTMENT_TOO_LONG); both units locked by id; unit bookable;
 * holds and time-off unless override; the exclusion constraint (SLOT_TAKEN). The block keeps the
 * appointment's own service's buffers.
 */
export async function rescheduleAppointment(ctx: MerchantContext, body: RescheduleBody): Promise<RescheduleResponse> {
  return moveForMerchant(
    ctx,
    {
      store_id: ctx.actor.storeId,
      appointment_id: body.appointment_id,
      unit_id: body.unit_id,
      starts_at: body.starts_at,
      ends_at: body.ends_at,
      block_starts_at: body.block_starts_at ?? null,
      block_ends_at: body.block_ends_at ?? null,
      override: body.override ?? false,
    },
    { exhausted: slotContended },
  );
}
