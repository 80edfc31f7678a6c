// Booking and moving appointments as the merchant. Both go through the booking authority, which
// alone writes a unit's occupied time; this module adds the rules around it (who is reachable,
// what the price is, the cancellation window) and the audit record, all in one transaction.
import type { MerchantContext } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { audit } from '../../platform/audit.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import { book, move, type AppointmentRow } from '../booking-authority.ts';
import { emit } from '../../events/outbox.ts';
import { outstandingOf } from './appointment-money.ts';
import { assertPartyFits } from '../services/party-size.ts';
import { guestPhone } from '../../customers/profile/uk-mobile.ts';
import * as repo from './appointments.repository.ts';
import type { Appointment, CreateBody, CreateResponse, RescheduleBody, RescheduleResponse } from './appointments.schemas.ts';

/** The source of an appointment booked here; the queue books with 'walk_in' (see docs/decisions.md). */
const MERCHANT_SOURCE = 'merchant';
const MINUTE_MS = 60_000;
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

function shift(instant: string, minutes: number): string {
  return new Date(Date.parse(instant) + minutes * MINUTE_MS).toISOString();
}

/**
 * What the unit is occupied for. An explicit block edge wins; otherwise the service's buffers
 * (clean-up, set-up) widen that side, as a real diary would. The customer is still told
 * starts_at/ends_at.
 */
function occupiedBlock(
  startsAt: string,
  endsAt: string,
  explicit: { start?: string | null; end?: string | null },
  service: repo.ServiceTerms | null,
): { blockStartsAt: string | null; blockEndsAt: string | null } {
  const before = service?.buffer_before_min ?? 0;
  const after = service?.buffer_after_min ?? 0;
  return {
    blockStartsAt: explicit.start ?? (before > 0 ? shift(startsAt, -before) : null),
    blockEndsAt: explicit.end ?? (after > 0 ? shift(endsAt, after) : null),
  };
}

/** Blank optional text is no text. */
function trimmed(value: string | null | undefined): string | null {
  return value?.trim() || null;
}

export async function createAppointment(ctx: MerchantContext, body: CreateBody): Promise<CreateResponse> {
  const storeId = ctx.actor.storeId;
  const customerId = body.customer_id ?? null;
  const guestEmail = body.guest_email ? body.guest_email.trim().toLowerCase() : null;
  // Someone must be reachable: an account, or a guest with an email.
  if (!customerId && !guestEmail) {
    throw new AppError('GUEST_CONTACT_REQUIRED', 'A booking needs customer_id or guest_email');
  }
  const partySize = body.party_size ?? 1;
  return inTransaction(ctx, async (tx) => {
    const now = ctx.clock.now();
    const serviceId = body.service_id ?? null;
    // The store, the service and the customer in one read; each refusal is checked in this order.
    const facts = await repo.bookingFacts(tx, storeId, { serviceId, customerId });
    const store = facts.store;
    if (!store) throw notFound('Store');
    const service = facts.service;
    if (serviceId && !service) throw notFound('Service');
    if (service && !service.is_active) throw new AppError('SERVICE_ARCHIVED', 'The service is archived and cannot be booked');
    if (service) assertPartyFits(service, partySize);
    if (customerId) {
      const customer = facts.customer;
      if (!customer) throw notFound('Customer');
      if (customer.erased) throw new AppError('CUSTOMER_ERASED', 'The customer asked to be deleted and cannot be booked');
    }
    const block = occupiedBlock(body.starts_at, body.ends_at, { start: body.block_starts_at, end: body.block_ends_at }, service);
    const { appointment, reused } = await book(
      tx,
      {
        storeId,
        unitId: body.unit_id,
        startsAt: body.starts_at,
        endsAt: body.ends_at,
        ...block,
        override: body.override ?? false,
        // A merchant quick-add is booked and agreed on the spot; no payment is pending.
        status: 'confirmed',
        serviceId: body.service_id ?? null,
        customerId,
        guestName: trimmed(body.guest_name),
        guestEmail,
        guestPhone: guestPhone(body.guest_phone),
        partySize,
        children: 0,
        highChairs: 0,
        // Snapshotted: later changes to the service never reprice this appointment.
        pricePence: body.price_pence ?? service?.price_pence ?? 0,
        // No money moves on a merchant quick-add, so no deposit was taken.
        depositPence: 0,
        paymentStatus: 'none',
        currency: store.currency,
        source: MERCHANT_SOURCE,
        preferredAreaId: null,
        clientToken: body.client_token ?? null,
        createdBy: ctx.actor.userId,
      },
      now,
    );
    if (!reused) {
      if (customerId) await repo.touchStoreRelationship(tx, storeId, customerId, now);
      await audit(tx, ctx, {
        action: 'appointment.created',
        entity: 'appointment',
        entityId: appointment.id,
        details: { unit_id: appointment.unit_id, starts_at: appointment.starts_at, is_override: appointment.is_override },
      });
    }
    const presented = presentAppointment(appointment);
    // A reused client token is a no-op repeat: it emits nothing.
    if (!reused) await emit(tx, { storeId, type: 'appointment.created', data: presented }, now);
    return { appointment: presented, reused };
  }, { exhausted: slotContended });
}

const UNMOVABLE = new Set(['cancelled', 'completed', 'no_show']);

/**
 * The store's cancellation window guards the appointment's CURRENT start: once now is within
 * cancellation_window_min minutes of it (or past it), a move needs override. A window of 0 never
 * refuses.
 */
function insideCancellationWindow(current: AppointmentRow, windowMin: number, now: Date): boolean {
  if (windowMin <= 0) return false;
  return now.getTime() >= Date.parse(current.starts_at) - windowMin * MINUTE_MS;
}

export async function rescheduleAppointment(ctx: MerchantContext, body: RescheduleBody): Promise<RescheduleResponse> {
  const storeId = ctx.actor.storeId;
  const override = body.override ?? false;
  return inTransaction(ctx, async (tx) => {
    const now = ctx.clock.now();
    const current = await repo.lockAppointment(tx, storeId, body.appointment_id);
    if (!current) throw notFound('Appointment');
    // Read after the lock: the target unit, the store's window and the service's buffers in one statement.
    const facts = await repo.bookingFacts(tx, storeId, { unitId: body.unit_id, serviceId: current.service_id });
    if (!facts.unitInStore) throw notFound('Unit');
    if (UNMOVABLE.has(current.status)) {
      throw new AppError('INVALID_TRANSITION', `A ${current.status} appointment cannot be moved`);
    }
    if (!override) {
      const store = facts.store;
      if (store && insideCancellationWindow(current, store.cancellation_window_min, now)) {
        throw new AppError('CANCELLATION_WINDOW', `Within ${store.cancellation_window_min} minutes of the start a move needs override`);
      }
    }
    const service = facts.service;
    const block = occupiedBlock(body.starts_at, body.ends_at, { start: body.block_starts_at, end: body.block_ends_at }, service);
    // One UPDATE: the new slot is secured before the old is released; a refusal leaves the row as it was.
    const moved = await move(tx, storeId, current, { unitId: body.unit_id, startsAt: body.starts_at, endsAt: body.ends_at, ...block, override }, now);
    await audit(tx, ctx, {
      action: 'appointment.rescheduled',
      entity: 'appointment',
      entityId: current.id,
      details: {
        from: { unit_id: current.unit_id, starts_at: current.starts_at, ends_at: current.ends_at },
        to: { unit_id: moved.unit_id, starts_at: moved.starts_at, ends_at: moved.ends_at },
        override,
      },
    });
    await emit(tx, {
      storeId,
      type: 'appointment.rescheduled',
      data: { ...presentAppointment(moved), previous: { unit_id: current.unit_id, starts_at: current.starts_at, ends_at: current.ends_at } },
    }, now);
    return {
      appointment_id: moved.id,
      unit_id: moved.unit_id,
      starts_at: moved.starts_at,
      ends_at: moved.ends_at,
      moved_in_place: moved.unit_id === current.unit_id,
    };
  }, { exhausted: slotContended });
}
