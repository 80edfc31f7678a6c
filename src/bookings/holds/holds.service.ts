// A customer's checkout: hold a slot, confirm it into an appointment, or let it go. Each is one
// statement of the booking authority (bbo_customer_hold, _confirm and _release in
// db/functions/customer-hold.sql and customer-confirm.sql), which checks who asks and for what,
// asks the availability function whether the start is offered, prices the booking, and writes the
// events, the audit trail and the idempotency record with it.
import type { CustomerContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { confirmForCustomer, holdForCustomer, releaseForCustomer } from '../booking-authority.ts';
import { withRetryAfter, type HoldGuard } from './hold-caps.ts';
import type { ConfirmBody, ConfirmResponse, HoldBody, HoldResponse, ReleaseResponse } from './holds.schemas.ts';

const contended = () => new AppError('SLOT_UNAVAILABLE', 'The slot is contended; search again');

/** What a hold asks for, as the hold functions take it (the customer's hold and the booking page's). */
export function slotAsked(body: Omit<HoldBody, 'store_id'>) {
  return {
    service_id: body.service_id,
    variant_id: body.variant_id ?? null,
    addon_ids: [...new Set((body.addon_ids ?? []).map((id) => id.toLowerCase()))],
    unit_id: body.unit_id ?? null,
    party_size: body.party_size ?? 1,
    starts_at: body.starts_at,
  };
}

/** guard: the client's address as holds keep it (per store) and the caps (hold-caps.ts). */
export async function createHold(ctx: CustomerContext, body: HoldBody, guard: HoldGuard): Promise<HoldResponse> {
  const customerId = ctx.actor.customerId;
  try {
    return await holdForCustomer(
      ctx,
      {
        store_id: body.store_id,
        ...slotAsked(body),
        customer_id: customerId,
        // The same caps as the booking page's door (issue 41): a customer token is no way round them.
        client_address_hash: guard.addressHash,
        address_cap: guard.perAddress,
        customer_cap: guard.perCustomer,
      },
      { exhausted: contended },
    );
  } catch (err) {
    return withRetryAfter(err, ctx.db, body.store_id, { addressHash: guard.addressHash, customerId }, ctx.clock.now());
  }
}

export async function confirmHold(ctx: CustomerContext, holdId: string, body: ConfirmBody): Promise<ConfirmResponse> {
  // What the customer wrote at checkout; kept on the appointment, never logged or emitted.
  const note = body.guest_note?.trim() || null;
  return confirmForCustomer(
    ctx,
    { hold_id: holdId, customer_id: ctx.actor.customerId, guest_note: note },
    { exhausted: contended },
  );
}

export async function releaseHold(ctx: CustomerContext, holdId: string): Promise<ReleaseResponse> {
  return releaseForCustomer(ctx, { hold_id: holdId, customer_id: ctx.actor.customerId });
}
