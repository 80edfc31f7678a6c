// Customer edit rules: normalise the input, lock the customer as this store sees it, write only
// what actually changed, and report the names (never the values) of the changed fields.
import { audit } from '../../platform/audit.ts';
import { emit } from '../../events/outbox.ts';
import { inTransaction, type MerchantContext } from '../../platform/context.ts';
import { AppError, badRequest, notFound } from '../../platform/errors/app-error.ts';
import { lockStoreCustomer, updateIdentity, updateMerchantNote } from './profile.repository.ts';
import { EDITABLE_FIELDS, type EditableField, type EditBody, type EditResponse } from './profile.schemas.ts';
import { ukMobileE164 } from '../../platform/uk-mobile.ts';

export const NAME_MAX = 80;
export const NOTE_MAX = 2000;
const EMAIL_MAX = 254; // RFC 5321 path limit

// Deliberately modest: one @, no spaces, a dotted domain. Deliverability is proven by sending, not here.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

// Lengths in characters (code points), as PostgreSQL's length() counts them in the CHECKs.
const chars = (s: string) => [...s].length;

type Changes = Partial<Record<EditableField, string | null>>;

/** The body's fields in stored form: omitted stays omitted, an empty string becomes null (clear). */
export function normaliseEdit(body: EditBody): Changes {
  const out: Changes = {};
  if (body.name !== undefined) {
    const name = body.name.trim();
    if (chars(name) > NAME_MAX) throw badRequest(`body.name must be at most ${NAME_MAX} characters`);
    out.name = name || null;
  }
  if (body.phone !== undefined) {
    const phone = body.phone.trim();
    if (phone === '') out.phone = null;
    else {
      const e164 = ukMobileE164(phone);
      if (!e164) throw new AppError('INVALID_PHONE', 'body.phone must be a UK mobile number');
      out.phone = e164;
    }
  }
  if (body.email !== undefined) {
    const email = body.email.trim().toLowerCase();
    if (email !== '' && (chars(email) > EMAIL_MAX || !EMAIL.test(email)))
      throw badRequest('body.email is not a valid email address');
    out.email = email || null;
  }
  if (body.merchant_note !== undefined) {
    // The note is kept as typed (line breaks and indentation are the merchant's); only "" clears it.
    if (chars(body.merchant_note) > NOTE_MAX)
      throw badRequest(`body.merchant_note must be at most ${NOTE_MAX} characters`);
    out.merchant_note = body.merchant_note === '' ? null : body.merchant_note;
  }
  return out;
}

export async function editCustomer(
  ctx: MerchantContext,
  customerId: string,
  body: EditBody,
  queryStoreId: string | undefined,
): Promise<EditResponse> {
  if (body.store_id === undefined && queryStoreId === undefined) throw badRequest('body.store_id is required');
  // The token's store is the acting store; store_id only had to be present and well-formed.
  const storeId = ctx.actor.storeId;
  const wanted = normaliseEdit(body);

  return inTransaction(ctx, async (tx) => {
    const current = await lockStoreCustomer(tx, storeId, customerId);
    if (!current) throw notFound('Customer');
    if (current.erased_at)
      throw new AppError('CUSTOMER_ERASED', 'The customer asked to be deleted and can no longer be edited');

    const changed = EDITABLE_FIELDS.filter((f) => wanted[f] !== undefined && wanted[f] !== current[f]);
    const next = { ...current };
    for (const f of changed) next[f] = wanted[f] as string | null;
    const now = ctx.clock.now().toISOString();

    if (changed.some((f) => f !== 'merchant_note')) {
      await updateIdentity(tx, customerId, { name: next.name, phone: next.phone, email: next.email }, now);
    }
    if (changed.includes('merchant_note')) {
      // The note's timestamp moves only when the note itself changes.
      await updateMerchantNote(tx, storeId, customerId, next.merchant_note, now);
      next.merchant_note_updated_at = now;
    }
    const customer = {
      id: next.id,
      name: next.name,
      phone: next.phone,
      email: next.email,
      merchant_note: next.merchant_note,
      merchant_note_updated_at: next.merchant_note_updated_at,
    };
    if (changed.length > 0) {
      await audit(tx, ctx, {
        action: 'customer.edited',
        entity: 'customer',
        entityId: customerId,
        details: { changed_fields: changed },
      });
      // The merchant's private note never leaves in an event (docs/decisions/events.md): only that it changed.
      const { merchant_note: _note, ...shared } = customer;
      await emit(
        tx,
        { storeId, type: 'customer.updated', data: { ...shared, changed_fields: changed } },
        ctx.clock.now(),
      );
    }

    return { customer, changed_fields: changed };
  });
}
