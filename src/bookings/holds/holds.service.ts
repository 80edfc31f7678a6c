// A customer's checkout: hold a slot, confirm it into an appointment, or let it go. The booking
// authority places and ends holds and books the appointment; this module checks who asks and for
// what, prices the booking, and records the events and the audit trail, in one transaction each.
import { inTransaction, type CustomerContext } from '../../platform/context.ts';
import { audit } from '../../platform/audit.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import { emit } from '../../events/outbox.ts';
import type { Tx } from '../../platform/db/port.ts';
import { confirmHold as bookHold, endHold, holdEventData, lockHold, placeHold, type HoldRow } from '../booking-authority.ts';
import type { SlotQuery } from '../availability/availability.repository.ts';
import { bookingTerms } from '../availability/booking-terms.repository.ts';
import { assertTerms } from '../availability/availability.service.ts';
import { presentAppointment } from '../appointments/appointments.service.ts';
import { touchStoreRelationship } from '../appointments/appointments.repository.ts';
import { depositOf, priceOf } from './booking-price.ts';
import * as repo from './holds.repository.ts';
import type { ConfirmBody, ConfirmResponse, HoldBody, HoldResponse, ReleaseResponse } from './holds.schemas.ts';

/** The source of an appointment a customer booked online. */
const ONLINE_SOURCE = 'online';
const MINUTE_MS = 60_000;
const contended = () => new AppError('SLOT_UNAVAILABLE', 'The slot is contended; search again');

function presentHold(h: HoldRow): HoldResponse['hold'] {
  return { id: h.id, unit_id: h.unit_id, starts_at: h.starts_at, ends_at: h.ends_at, expires_at: h.expires_at };
}

export async function createHold(ctx: CustomerContext, body: HoldBody): Promise<HoldResponse> {
  const customerId = ctx.actor.customerId;
  const partySize = body.party_size ?? 1;
  const ask = {
    storeId: body.store_id, serviceId: body.service_id, variantId: body.variant_id ?? null,
    addonIds: [...new Set((body.addon_ids ?? []).map((id) => id.toLowerCase()))], unitId: body.unit_id ?? null,
  };
  return inTransaction(ctx, async (tx) => {
    const now = ctx.clock.now();
    const terms = await bookingTerms(tx, { ...ask, customerId });
    assertTerms(terms, true, partySize);
    if (!terms.customer) throw notFound('Customer');
    if (terms.customer.erased) throw new AppError('CUSTOMER_ERASED', 'The customer asked to be deleted and cannot book');
    if (terms.customer.blocked) throw new AppError('CUSTOMER_BLOCKED', 'The store does not take online bookings from this customer');
    const query: SlotQuery & { at: string } = {
      ...ask, partySize, fromDate: null, toDate: null, at: body.starts_at, customerView: true, customerId,
      askedAt: now.toISOString(), now: now.toISOString(),
    };
    const expiresAt = new Date(now.getTime() + terms.store.hold_minutes * MINUTE_MS).toISOString();
    const hold = await placeHold(tx, { query, customerId, expiresAt }, now);
    await audit(tx, ctx, { action: 'hold.created', entity: 'hold', entityId: hold.id, details: { store_id: hold.store_id, unit_choice: hold.unit_choice } });
    await emit(tx, { storeId: hold.store_id, type: 'hold.created', data: holdEventData(hold) }, now);
    return { hold: presentHold(hold) };
  }, { exhausted: contended });
}

/** The customer's own hold, locked (after its unit); someone else's reads as missing. */
async function ownHold(tx: Tx, ctx: CustomerContext, holdId: string): Promise<HoldRow> {
  const hold = await lockHold(tx, holdId);
  if (!hold || hold.customer_id !== ctx.actor.customerId) throw notFound('Hold');
  return hold;
}

export async function confirmHold(ctx: CustomerContext, holdId: string, body: ConfirmBody): Promise<ConfirmResponse> {
  return inTransaction(ctx, async (tx) => {
    const now = ctx.clock.now();
    const hold = await ownHold(tx, ctx, holdId);
    // A retried confirm (the first answer was lost) returns what the first one booked.
    if (hold.appointment_id) {
      const booked = await repo.findAppointment(tx, hold.store_id, hold.appointment_id);
      if (booked) return { appointment: presentAppointment(booked), reused: true };
    }
    if (hold.release_reason === 'expired' || (!hold.released_at && hold.expires_at && Date.parse(hold.expires_at) <= now.getTime())) {
      throw new AppError('HOLD_EXPIRED', 'The hold lapsed before it was confirmed; search again and hold a new slot');
    }
    if (hold.released_at) throw new AppError('HOLD_RELEASED', 'The hold was released; search again and hold a new slot');
    const ask = { storeId: hold.store_id, serviceId: hold.service_id!, variantId: hold.variant_id, addonIds: hold.addon_ids, unitId: hold.unit_id };
    const terms = await bookingTerms(tx, { ...ask, customerId: ctx.actor.customerId });
    if (!terms.store || !terms.service) throw new AppError('SLOT_UNAVAILABLE', 'The service is no longer offered');
    const price = priceOf(terms.service, hold.party_size);
    const deposit = depositOf(terms.service.deposit_policy, price);
    const query: SlotQuery & { at: string } = {
      ...ask, partySize: hold.party_size, fromDate: null, toDate: null, at: hold.starts_at, customerView: true,
      customerId: ctx.actor.customerId, askedAt: hold.created_at, now: now.toISOString(),
    };
    const { appointment, reused } = await bookHold(tx, hold, query, {
      storeId: hold.store_id,
      // A deposit is due before the booking is firm; no money moves here (see docs/decisions.md).
      status: deposit > 0 ? 'pending_payment' : 'confirmed',
      serviceId: hold.service_id,
      customerId: ctx.actor.customerId,
      guestName: null,
      guestEmail: null,
      guestPhone: null,
      partySize: hold.party_size,
      children: 0,
      highChairs: 0,
      // Snapshotted: later changes to the service never reprice this appointment.
      pricePence: price,
      depositPence: deposit,
      paymentStatus: 'none',
      currency: terms.store.currency,
      source: ONLINE_SOURCE,
      preferredAreaId: null,
      createdBy: `customer:${ctx.actor.customerId}`,
    }, now);
    const note = body.guest_note?.trim();
    if (note) await repo.setGuestNote(tx, hold.store_id, appointment.id, note);
    await touchStoreRelationship(tx, hold.store_id, ctx.actor.customerId, now);
    await audit(tx, ctx, {
      action: 'appointment.created', entity: 'appointment', entityId: appointment.id,
      details: { store_id: hold.store_id, hold_id: hold.id, source: ONLINE_SOURCE, status: appointment.status },
    });
    const presented = presentAppointment(appointment);
    const ended = { ...hold, released_at: now.toISOString(), release_reason: 'confirmed', appointment_id: appointment.id };
    await emit(tx, { storeId: hold.store_id, type: 'hold.released', data: holdEventData(ended) }, now);
    await emit(tx, { storeId: hold.store_id, type: 'appointment.created', data: presented }, now);
    return { appointment: presented, reused };
  }, { exhausted: contended });
}

export async function releaseHold(ctx: CustomerContext, holdId: string): Promise<ReleaseResponse> {
  return inTransaction(ctx, async (tx) => {
    const now = ctx.clock.now();
    const hold = await ownHold(tx, ctx, holdId);
    if (hold.released_at) return { hold_id: hold.id, released: false, noop: true };
    // A lapsed hold noticed here is reported as what it is.
    const lapsed = hold.expires_at !== null && Date.parse(hold.expires_at) <= now.getTime();
    const ended = await endHold(tx, hold, lapsed ? 'expired' : 'released', now);
    await audit(tx, ctx, { action: 'hold.released', entity: 'hold', entityId: hold.id, details: { store_id: hold.store_id } });
    await emit(tx, { storeId: hold.store_id, type: lapsed ? 'hold.expired' : 'hold.released', data: holdEventData(ended) }, now);
    return { hold_id: hold.id, released: !lapsed, noop: lapsed };
  });
}
