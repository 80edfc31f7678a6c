// The availability search. The rules live in one SQL statement (availability.repository.ts); this
// module checks the question (who asks, which store, which service, which dates), keeps computed
// answers while the store's diary is unchanged (availability.cache.ts) and serves them by day
// (availability.answer.ts).
import type { ShopperContext } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import { offeredSlots, type SlotQuery } from './availability.repository.ts';
import { availabilityCache } from './availability.cache.ts';
import { addDays, keptAnswer, keptDays, servedBody } from './availability.answer.ts';
import { bookingTerms, type BookingTerms } from './booking-terms.repository.ts';
import { MAX_AVAILABILITY_DAYS, type AvailabilityQuery } from './availability.schemas.ts';
import { readHandle } from '../../platform/db/read-routing.plugin.ts';

const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The store a shopper's question is about: a merchant's own store always wins. */
export function storeOf(ctx: ShopperContext, storeId: string | null | undefined): string {
  if (ctx.actor.kind === 'merchant') return ctx.actor.storeId;
  if (!storeId) throw new AppError('VALIDATION_FAILED', 'store_id is required with a customer token');
  return storeId;
}

/** "a,b,c" → distinct ids; anything that is not a uuid is named. */
export function parseAddonIds(raw: string | null | undefined): string[] {
  if (!raw?.trim()) return [];
  const ids = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const bad = ids.find((id) => !UUID.test(id));
  if (bad !== undefined)
    throw new AppError('VALIDATION_FAILED', `addon_ids must be comma-separated uuids ("${bad.slice(0, 40)}" is not)`);
  return [...new Set(ids)];
}

/**
 * The refusals shared by the search and the hold, each with a clear code: an unknown store,
 * service, variant, add-on or unit reads as 404 (a service hidden from customers is unknown to
 * them); a party outside the service's range is 400 (the one party rule, bbo_party_refusal, read with the terms).
 */
export function assertTerms(
  terms: BookingTerms,
  customerView: boolean,
): asserts terms is BookingTerms & {
  store: NonNullable<BookingTerms['store']>;
  service: NonNullable<BookingTerms['service']>;
} {
  if (!terms.store) throw notFound('Store');
  const service = terms.service;
  if (!service || (customerView && (!service.online_visible || !service.is_active))) throw notFound('Service');
  if (!service.is_active) throw new AppError('SERVICE_ARCHIVED', 'The service is archived and cannot be booked');
  if (!terms.variantFound) throw notFound('Variant');
  if (!terms.addonsFound) throw notFound('Add-on');
  if (!terms.unitInStore) throw notFound('Unit');
  if (terms.partyRefusal) throw new AppError('PARTY_SIZE_OUT_OF_RANGE', terms.partyRefusal);
}

/** Today's date on the store's wall clock. */
function localToday(timezone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

export interface SearchOptions {
  /** false computes every answer afresh, even where answers are kept (the bench's measure of the statement; tests' reference). */
  cache?: boolean;
}

/**
 * The answer as JSON bytes, ready to send: kept answers are served as they were serialised
 * (availability.cache.ts), so the route sends them as they are.
 */
export async function searchAvailability(
  ctx: ShopperContext,
  query: AvailabilityQuery,
  options: SearchOptions = {},
): Promise<Buffer> {
  const storeId = storeOf(ctx, query.store_id);
  const customerView = ctx.actor.kind === 'customer';
  const customerId = ctx.actor.kind === 'customer' ? ctx.actor.customerId : null;
  const addonIds = parseAddonIds(query.addon_ids);
  const partySize = query.party_size ?? 1;
  const now = ctx.clock.now();
  const nowMs = now.getTime();
  const db = await readHandle(ctx, storeId); // the replica when it has every write this caller and store made
  const cache = options.cache === false ? null : availabilityCache(db);
  const ask = {
    storeId,
    serviceId: query.service_id,
    variantId: query.variant_id ?? null,
    addonIds,
    unitId: query.unit_id ?? null,
  };
  const since = cache?.snapshotOf(storeId) ?? null;
  const terms = await bookingTerms(db, { ...ask, customerId, partySize }, { since, now: now.toISOString() });
  // Days computed from here on saw every change this check saw; the days it found changed go stale now.
  cache?.observe(storeId, terms.diary, nowMs, since, performance.now());
  assertTerms(terms, customerView);
  // Unset dates: from today (store-local) for a week.
  const fromDate = query.from_date ?? localToday(terms.store.timezone, now);
  const toDate = query.to_date ?? addDays(fromDate, 6);
  if (toDate < fromDate) throw new AppError('INVALID_TIME_RANGE', 'to_date must not be before from_date');
  const days = daysFrom(fromDate, toDate);
  if (days > MAX_AVAILABILITY_DAYS)
    throw new AppError('RANGE_TOO_LONG', `An availability search covers at most ${MAX_AVAILABILITY_DAYS} days`);
  const head = {
    store_id: storeId,
    timezone: terms.store.timezone,
    service_id: query.service_id,
    duration_min: terms.service.duration_min,
  };
  // A store that has blocked the customer offers nothing (the same answer for every other customer is kept).
  if (customerView && terms.customer?.blocked) return servedBody(keptAnswer([], fromDate, days), head, 0, 0);

  // Computed without the notice and horizon, by day: they are applied below, as it is served.
  const q: SlotQuery = { ...ask, partySize, fromDate, toDate, customerView, customerId: null, now: now.toISOString() };
  const holdsExpireAt = terms.diary.holdsExpireAt ? Date.parse(terms.diary.holdsExpireAt) : Infinity;
  const answer = cache
    ? await cache.answer(storeId, keyOf(q), fromDate, days, nowMs, async (from, to) => ({
        days: keptDays(await offeredSlots(db, { ...q, fromDate: from, toDate: to }), from, daysFrom(from, to)),
        validUntil: holdsExpireAt,
      }))
    : keptAnswer(await offeredSlots(db, q), fromDate, days);
  const earliest = nowMs + terms.store.min_notice_min * 60_000;
  const latest = nowMs + terms.store.booking_horizon_days * DAY_MS;
  return servedBody(answer, head, earliest, latest);
}

/** What a kept day answers (the store and the date are the cache's own). */
const keyOf = (q: SlotQuery) =>
  [q.serviceId, q.variantId, [...q.addonIds].sort().join(','), q.unitId, q.partySize, q.customerView].join('|');

/** How many days from..to covers (both store-local dates, inclusive). */
const daysFrom = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
