// The operator surface: how stores, units, customers, memberships, holds and tokens come to exist.
import type { Static } from 'typebox';
import { inTransaction, type AdminContext } from '../platform/context.ts';
import { AppError, notFound } from '../platform/errors/app-error.ts';
import { audit } from '../platform/audit.ts';
import { emit } from '../events/outbox.ts';
import { PG, pgCode, pgConstraint } from '../platform/db/pg-errors.ts';
import { systemClock } from '../platform/clock.ts';
import type { TokenService } from '../platform/auth/tokens.ts';
import { lockUnits, placeRawHold } from '../bookings/booking-authority.ts';
import { normaliseOrigins } from '../bookings/settings/origins.ts';
import { asSlugRefusal } from '../bookings/settings/booking-page-slug.ts';
import { normaliseShopDetails } from '../bookings/settings/shop-details.ts';
import { insertUnit, type UnitChanges } from '../bookings/units/units.repository.ts';
import { ukMobileE164 } from '../platform/uk-mobile.ts';
import * as repo from './admin.repository.ts';
import type {
  CreateCustomerBody,
  CreateHoldBody,
  CreateStoreBody,
  TokenBody,
  UpdateStoreBody,
} from './admin.schemas.ts';

function assertTimezone(timezone: string | undefined) {
  if (timezone === undefined) return;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: timezone });
  } catch {
    throw new AppError('VALIDATION_FAILED', `body.timezone "${timezone}" is not an IANA time zone`);
  }
}

/** The shop's details as the merchant's settings keep them (trimmed, blank as null, the phone as E.164); a malformed one refused by name. */
function withShopDetails<T extends object>(body: T): T {
  const copy = { ...body };
  normaliseShopDetails(copy as Record<string, unknown>);
  return copy;
}

export async function createStore(ctx: AdminContext, body: Static<typeof CreateStoreBody>) {
  assertTimezone(body.timezone);
  if (body.cors_origins) body = { ...body, cors_origins: normaliseOrigins(body.cors_origins) };
  body = withShopDetails(body);
  return inTransaction(ctx, async (tx) => {
    const store = await repo.insertStore(tx, body, ctx.clock.now().toISOString()).catch(asSlugRefusal);
    await audit(tx, ctx, {
      action: 'store.created',
      entity: 'store',
      entityId: store.id,
      details: { store_id: store.id },
    });
    return { store };
  });
}

export async function updateStore(ctx: AdminContext, storeId: string, body: Static<typeof UpdateStoreBody>) {
  assertTimezone(body.timezone);
  if (body.cors_origins) body = { ...body, cors_origins: normaliseOrigins(body.cors_origins) };
  body = withShopDetails(body);
  return inTransaction(ctx, async (tx) => {
    const store = await repo.updateStore(tx, storeId, body, ctx.clock.now().toISOString()).catch(asSlugRefusal);
    if (!store) throw notFound('Store');
    await audit(tx, ctx, {
      action: 'store.updated',
      entity: 'store',
      entityId: storeId,
      details: { store_id: storeId, fields: Object.keys(body) },
    });
    return { store };
  });
}

export async function createUnit(ctx: AdminContext, storeId: string, body: UnitChanges) {
  return inTransaction(ctx, async (tx) => {
    if (!(await repo.storeExists(tx, storeId, true))) throw notFound('Store');
    const unit = await insertUnit(tx, storeId, body, ctx.clock.now());
    await audit(tx, ctx, { action: 'unit.created', entity: 'unit', entityId: unit.id, details: { store_id: storeId } });
    return { unit };
  });
}

/** UK mobiles only, by the same rule as the customer edit (see docs/decisions/customers.md). */
function normalisePhone(raw: string): string {
  const e164 = ukMobileE164(raw);
  if (!e164) throw new AppError('INVALID_PHONE', 'body.phone must be a UK mobile number');
  return e164;
}

function uniqueViolation(err: unknown): never {
  if (pgCode(err) === PG.uniqueViolation) {
    if (pgConstraint(err) === 'customers_phone_key')
      throw new AppError('PHONE_IN_USE', 'That phone number belongs to another customer');
    if (pgConstraint(err) === 'customers_email_key')
      throw new AppError('EMAIL_IN_USE', 'That email belongs to another customer');
  }
  throw err;
}

export async function createCustomer(ctx: AdminContext, body: Static<typeof CreateCustomerBody>) {
  const name = body.name?.trim() || null;
  const email = body.email?.trim().toLowerCase() || null;
  if (email !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new AppError('VALIDATION_FAILED', 'body.email is not an email address');
  const phone = body.phone?.trim() ? normalisePhone(body.phone) : null;
  return inTransaction(ctx, async (tx) => {
    const customer = await repo
      .insertCustomer(tx, { name, email, phone }, ctx.clock.now().toISOString())
      .catch(uniqueViolation);
    await audit(tx, ctx, { action: 'customer.created', entity: 'customer', entityId: customer.id });
    return { customer };
  });
}

export async function addMembership(ctx: AdminContext, storeId: string, customerId: string) {
  return inTransaction(ctx, async (tx) => {
    if (!(await repo.storeExists(tx, storeId, true))) throw notFound('Store');
    const customer = await repo.findCustomer(tx, customerId, true);
    if (!customer || customer.erased_at) throw notFound('Customer');
    const row = await repo.upsertMembership(tx, storeId, customerId, ctx.clock.now().toISOString());
    const created = row.was_member !== true;
    if (created)
      await audit(tx, ctx, {
        action: 'membership.created',
        entity: 'customer',
        entityId: customerId,
        details: { store_id: storeId },
      });
    return {
      membership: {
        store_id: row.store_id,
        customer_id: row.customer_id,
        is_member: row.is_member,
        member_since: row.member_since,
        first_seen_at: row.first_seen_at,
        created,
      },
    };
  });
}

export async function eraseCustomer(ctx: AdminContext, customerId: string) {
  return inTransaction(ctx, async (tx) => {
    const customer = await repo.findCustomer(tx, customerId, true);
    if (!customer) throw notFound('Customer');
    if (customer.erased_at) return { customer_id: customerId, erased: false, erased_at: customer.erased_at };
    const now = ctx.clock.now().toISOString();
    await repo.eraseCustomer(tx, customer, now);
    await audit(tx, ctx, { action: 'customer.erased', entity: 'customer', entityId: customerId });
    // Every store that knows the customer learns that their identity is gone (so its own copies can go too).
    const changed = [...(['name', 'phone', 'email'] as const).filter((f) => customer[f] !== null), 'erased_at'];
    const data = { id: customerId, name: null, phone: null, email: null, erased_at: now, changed_fields: changed };
    for (const storeId of await repo.customerStores(tx, customerId)) {
      await emit(tx, { storeId, type: 'customer.updated', data }, ctx.clock.now());
    }
    return { customer_id: customerId, erased: true, erased_at: now };
  });
}

export async function createHold(ctx: AdminContext, storeId: string, body: Static<typeof CreateHoldBody>) {
  if (Date.parse(body.ends_at) <= Date.parse(body.starts_at))
    throw new AppError('INVALID_TIME_RANGE', 'ends_at must be after starts_at');
  return inTransaction(ctx, async (tx) => {
    if (!(await repo.storeExists(tx, storeId))) throw notFound('Store');
    // Serialised with bookings on the same unit (see the booking authority).
    await lockUnits(tx, storeId, [body.unit_id]);
    const now = ctx.clock.now().toISOString();
    const taken = await repo.occupiedBy(tx, storeId, body.unit_id, body.starts_at, body.ends_at, now);
    if (taken === 'appointment') throw new AppError('SLOT_TAKEN', 'The unit is already booked for part of that time');
    if (taken === 'hold') throw new AppError('UNIT_UNAVAILABLE', 'The unit is already held for part of that time');
    // Through the booking authority: it alone writes occupied time (unit_occupancy decides).
    const placed = await placeRawHold(
      tx,
      storeId,
      { unitId: body.unit_id, startsAt: body.starts_at, endsAt: body.ends_at, expiresAt: body.expires_at ?? null },
      ctx.clock.now(),
    );
    const hold = {
      id: placed.id,
      unit_id: placed.unit_id,
      starts_at: placed.starts_at,
      ends_at: placed.ends_at,
      expires_at: placed.expires_at,
    };
    await audit(tx, ctx, { action: 'hold.created', entity: 'hold', entityId: hold.id, details: { store_id: storeId } });
    return { hold };
  });
}

export async function mintToken(ctx: AdminContext, tokens: TokenService, body: Static<typeof TokenBody>) {
  if (body.kind === 'merchant') {
    if (!(await repo.storeExists(ctx.db, body.store_id))) throw notFound('Store');
  } else {
    const customer = await repo.findCustomer(ctx.db, body.customer_id);
    if (!customer || customer.erased_at) throw notFound('Customer');
  }
  // Tokens are checked against real time by every verifier, so they are minted on the system clock.
  const { token, expiresAt } = await tokens.sign(body, body.ttl_s ?? 3600, systemClock.now());
  return { token, expires_at: expiresAt };
}
