// The walk-in queue's rules: join, list, call, seat (assign) and remove. Every transition locks
// the entry row first, so two staff acting on one entry are decided one after the other.
import { audit } from '../../platform/audit.ts';
import { inTransaction, type MerchantContext } from '../../platform/context.ts';
import type { Queryable } from '../../platform/db/port.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import { seatWalkIn } from '../booking-authority.ts';
import { emit } from '../../events/outbox.ts';
import { liveQueue, presentEntry, presentOne } from './queue-view.ts';
import * as repo from './queue.repository.ts';
import type {
  AssignBody,
  AssignResult,
  CallResult,
  EntryBody,
  JoinBody,
  JoinResult,
  QueueList,
  RemoveBody,
  RemoveResult,
} from './queue.schemas.ts';
import { waitMinutes } from './wait-model.ts';
import { guestPhone } from '../../platform/uk-mobile.ts';

/** Hold after a call when the store has not set called_hold_minutes (docs/decisions/queue.md). */
export const DEFAULT_CALLED_HOLD_MIN = 10;

async function lockedEntry(q: Queryable, storeId: string, entryId: string): Promise<repo.EntryRow> {
  return entryFound(await repo.lockEntry(q, storeId, entryId));
}

function entryFound(entry: repo.EntryRow | null): repo.EntryRow {
  if (!entry) throw notFound('Queue entry');
  return entry;
}

function storeFound(store: repo.StoreQueueSettings | null): repo.StoreQueueSettings {
  if (!store) throw notFound('Store');
  return store;
}

export async function listQueue(ctx: MerchantContext): Promise<QueueList> {
  const storeId = ctx.actor.storeId;
  const now = ctx.clock.now();
  // The store's settings come in the live queue's statement: one round trip, and a missing store is
  // still NOT_FOUND before anything is answered.
  const { store: found, rows, placements } = await liveQueue(ctx.db, storeId, now);
  const store = storeFound(found);
  return {
    store_id: storeId,
    walkin_mode: store.walkin_mode,
    called_hold_minutes: store.called_hold_minutes,
    entries: rows.map((row) => presentEntry(row, placements.get(row.entry_id), now)),
  };
}

/** Checks what the entry names, in this order: customer, service and unit must exist in (or for) this store. */
function validateJoin(body: JoinBody, facts: repo.JoinFacts) {
  if (body.customer_id) {
    const customer = facts.customer;
    if (!customer || customer.erased) throw notFound('Customer');
    if (customer.blocked)
      throw new AppError('CUSTOMER_BLOCKED', 'The customer is blocked at this store and cannot join the queue');
  }
  if (body.service_id) {
    const service = facts.service;
    // An archived service cannot be booked, so it reads as missing here.
    if (!service?.is_active) throw notFound('Service');
    // The one party rule (bbo_party_refusal), read with the facts.
    if (facts.partyRefusal) throw new AppError('PARTY_SIZE_OUT_OF_RANGE', facts.partyRefusal);
  }
  if (body.preferred_unit_id) {
    const unit = facts.unit;
    if (!unit) throw notFound('Unit');
    if (!unit.is_active || !unit.bookable)
      throw new AppError('UNIT_NOT_BOOKABLE', 'The preferred unit is inactive or not bookable');
  }
  return { durationMin: facts.walkInMin };
}

export async function joinQueue(ctx: MerchantContext, body: JoinBody): Promise<JoinResult> {
  const storeId = ctx.actor.storeId;
  const guestName = body.guest_name?.trim() || null;
  if (!body.customer_id && !guestName)
    throw new AppError('WALK_IN_NAME_REQUIRED', 'A queue entry needs customer_id or guest_name');
  return inTransaction(ctx, async (tx) => {
    const clientToken = body.client_token ?? null;
    // One read answers every check below.
    const facts = await repo.joinFacts(tx, storeId, {
      clientToken,
      customerId: body.customer_id ?? null,
      serviceId: body.service_id ?? null,
      unitId: body.preferred_unit_id ?? null,
      partySize: body.party_size ?? 1,
    });
    const store = storeFound(facts.store);
    const now = ctx.clock.now();
    // A retry answers with the first entry before any other check.
    if (facts.existing) return { entry: await presentOne(tx, facts.existing, now), reused: true };
    if (store.walkin_mode === 'appointments_only') {
      throw new AppError('WALK_INS_DISABLED', 'The store takes appointments only; walk-ins cannot join its queue');
    }
    const { durationMin } = validateJoin(body, facts);
    const preferredUnitId = body.preferred_unit_id ?? null;

    // The quote is the model's placement of this entry behind everyone already live.
    const { placements } = await liveQueue(tx, storeId, now, {
      id: 'newcomer',
      status: 'waiting',
      durationMin,
      preferredUnitId,
    });
    const placement = placements.get('newcomer')!;
    const start = placement.start;
    const row = await repo.insertEntry(tx, {
      storeId,
      customerId: body.customer_id ?? null,
      guestName,
      guestPhone: guestPhone(body.guest_phone),
      serviceId: body.service_id ?? null,
      preferredUnitId,
      partySize: body.party_size ?? 1,
      joinedAt: now.toISOString(),
      quotedWaitMin: start === null ? null : waitMinutes(now.getTime(), start),
      clientToken,
    });
    if (!row) {
      // A concurrent join with the same client_token committed first: answer with its entry.
      const winner = await repo.findEntryByClientToken(tx, storeId, clientToken!);
      if (!winner) throw new AppError('CONFLICT', 'The join collided with a concurrent request; retry it');
      return { entry: await presentOne(tx, winner, now), reused: true };
    }
    await audit(tx, ctx, {
      action: 'queue.join',
      entity: 'queue_entry',
      entityId: row.entry_id,
      details: { quoted_wait_min: row.quoted_wait_min },
    });
    // Nothing changed since the placement was computed, so it is the new entry's as the list shows it.
    const entry = presentEntry(row, { ...placement, entryId: row.entry_id }, now);
    await emit(tx, { storeId, type: 'queue.joined', data: entry }, now);
    return { entry, reused: false };
  });
}

export async function callEntry(ctx: MerchantContext, body: EntryBody): Promise<CallResult> {
  const storeId = ctx.actor.storeId;
  return inTransaction(ctx, async (tx) => {
    const locked = await repo.lockEntryWithStore(tx, storeId, body.entry_id);
    const store = storeFound(locked.store);
    const entry = entryFound(locked.entry);
    const holdMinutes = store.called_hold_minutes ?? DEFAULT_CALLED_HOLD_MIN;
    if (entry.status === 'called')
      return { entry_id: entry.entry_id, called: false, hold_minutes: holdMinutes, called_at: entry.called_at };
    if (entry.status !== 'waiting')
      throw new AppError('ENTRY_NOT_WAITING', `The entry is ${entry.status}; only a waiting entry can be called`);
    const calledAt = ctx.clock.now().toISOString();
    await repo.markCalled(tx, storeId, entry.entry_id, calledAt);
    await audit(tx, ctx, {
      action: 'queue.call',
      entity: 'queue_entry',
      entityId: entry.entry_id,
      details: { hold_minutes: holdMinutes },
    });
    const called = presentEntry({ ...entry, status: 'called', called_at: calledAt }, undefined, ctx.clock.now());
    await emit(
      tx,
      {
        storeId,
        type: 'queue.called',
        data: { ...called, hold_minutes: holdMinutes, previous: { status: entry.status } },
      },
      ctx.clock.now(),
    );
    return { entry_id: entry.entry_id, called: true, hold_minutes: holdMinutes, called_at: calledAt };
  });
}

/**
 * Seats a walk-in: one call of bbo_queue_seat (db/functions/queue-seat.sql) through the booking
 * authority, which locks the entry, books the appointment (checked in now) and marks the entry
 * assigned, with the audit row and the events. A unit taken meanwhile (an appointment, a hold or
 * time-off) answers STALE_SLOT: the statement rolled back, so the entry keeps its status and place.
 */
export async function assignEntry(ctx: MerchantContext, body: AssignBody): Promise<AssignResult> {
  const stale = () =>
    new AppError('STALE_SLOT', 'The seat collided with concurrent changes; the entry keeps its place');
  try {
    return await seatWalkIn(
      ctx,
      {
        store_id: ctx.actor.storeId,
        entry_id: body.entry_id,
        unit_id: body.unit_id,
        duration_min: body.duration_min ?? null,
        override: body.override ?? false,
        created_by: ctx.actor.userId,
      },
      { exhausted: stale },
    );
  } catch (err) {
    if (err instanceof AppError && (err.code === 'SLOT_TAKEN' || err.code === 'UNIT_UNAVAILABLE')) {
      throw new AppError('STALE_SLOT', `The unit is no longer free (${err.message}); the entry keeps its place`);
    }
    throw err;
  }
}

export async function removeEntry(ctx: MerchantContext, body: RemoveBody): Promise<RemoveResult> {
  const storeId = ctx.actor.storeId;
  return inTransaction(ctx, async (tx) => {
    const entry = await lockedEntry(tx, storeId, body.entry_id);
    if (entry.status === 'left' || entry.status === 'no_show')
      return { entry_id: entry.entry_id, status: entry.status, noop: true };
    if (entry.status !== 'waiting' && entry.status !== 'called') {
      throw new AppError(
        'INVALID_TRANSITION',
        `The entry is ${entry.status}; only a waiting or called entry can be removed`,
      );
    }
    const now = ctx.clock.now();
    await repo.markEnded(tx, storeId, entry.entry_id, body.status, now.toISOString());
    await audit(tx, ctx, {
      action: 'queue.remove',
      entity: 'queue_entry',
      entityId: entry.entry_id,
      details: { status: body.status, from: entry.status },
    });
    const removed = presentEntry({ ...entry, status: body.status, ended_at: now.toISOString() }, undefined, now);
    await emit(
      tx,
      {
        storeId,
        type: 'queue.removed',
        data: { ...removed, ended_at: now.toISOString(), reason: body.status, previous: { status: entry.status } },
      },
      now,
    );
    return { entry_id: entry.entry_id, status: body.status, noop: false };
  });
}
