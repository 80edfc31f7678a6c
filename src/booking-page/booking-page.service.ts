// The booking page's operations before the booking exists: the page, its times, the challenge, and
// the guest's hold (held from the moment a time is chosen, before sign-in) and its confirm. Every
// write goes through the booking authority (src/bookings/booking-authority.ts): the hold and the
// confirm are one statement each (db/functions/booking-page.sql), and the occupancy constraint
// decides who gets a contended slot (no check-then-insert: Cal.com #13397, Easy!Appointments #845).
import type { CustomerActor, GuestActor } from '../platform/auth/actor.ts';
import { AppError, notFound } from '../platform/errors/app-error.ts';
import { confirmForPage, holdForPage, releaseForPage } from '../bookings/booking-authority.ts';
import { searchAvailability } from '../bookings/availability/availability.service.ts';
import { slotAsked } from '../bookings/holds/holds.service.ts';
import { holdAddressHash, withRetryAfter } from '../bookings/holds/hold-caps.ts';
import { keyedHash } from '../platform/auth/page-keys.ts';
import type { PageContext, PageReadContext } from './page-context.ts';
import * as repo from './booking-page.repository.ts';
import { shopWindow } from './shop-window.repository.ts';
import type {
  BookingPageResponse,
  PageAvailabilityQuery,
  PageConfirmBody,
  PageConfirmResponse,
  PageHoldBody,
  PageHoldResponse,
} from './booking-page.schemas.ts';

/** The store behind an enabled page; an unknown slug and a page switched off read the same. */
export async function pageStore(ctx: PageReadContext, slug: string): Promise<repo.PageStoreRow> {
  const store = await repo.storeBySlug(ctx.page.db, slug);
  if (!store) throw notFound('Booking page');
  return store;
}

export async function getBookingPage(ctx: PageReadContext, slug: string): Promise<BookingPageResponse> {
  const deps = ctx.page;
  const store = await pageStore(ctx, slug);
  const contents = await repo.pageContents(deps.db, store.id);
  return {
    page: {
      slug: store.slug,
      store_name: store.name,
      timezone: store.timezone,
      currency: store.currency,
      hold_minutes: store.hold_minutes,
      cancellation_window_min: store.cancellation_window_min,
      ...contents,
      shop: await shopWindow(deps.db, store.id),
      sign_in: deps.signIn.signInMode,
    },
  };
}

// The availability search in the customer's view, asked by nobody in particular (no customer: the
// blocked-customer rule applies at confirm, where the customer is known).
const ANONYMOUS: CustomerActor = { kind: 'customer', customerId: '00000000-0000-0000-0000-000000000000', scopes: [] };

export async function searchPageAvailability(
  ctx: PageContext,
  slug: string,
  query: PageAvailabilityQuery,
): Promise<Buffer> {
  const store = await pageStore(ctx, slug);
  return searchAvailability(ctx.as(ANONYMOUS), { ...query, store_id: store.id });
}

/** A filled honeypot (a field people never see) is refused with a sentence that explains nothing. */
export function refuseHoneypot(website: string | undefined): void {
  if (website && website.trim() !== '')
    throw new AppError('REQUEST_REFUSED', 'We could not accept this request; please reload the page and try again');
}

/** The caller's address as the sign-in limits keep it (keyed, never in the clear). */
export const addressHash = (ctx: PageContext) => keyedHash(ctx.page.addressKey, ctx.ip);

/** GET .../challenge: a proof-of-work challenge, for an enabled page only. */
export async function pageChallenge(ctx: PageContext, slug: string) {
  await pageStore(ctx, slug);
  return ctx.page.challenges.create();
}

const contended = () => new AppError('SLOT_UNAVAILABLE', 'Someone else is booking that time; please choose another');

export async function createPageHold(
  ctx: PageContext,
  slug: string,
  body: PageHoldBody,
  sessionToken: string | undefined,
): Promise<PageHoldResponse> {
  const deps = ctx.page;
  const store = await pageStore(ctx, slug);
  refuseHoneypot(body.website);
  await deps.challenges.spend(body.altcha);
  // The browser's session, or a new one: it owns the hold until the customer confirms.
  const known = await deps.pageTokens.session(sessionToken);
  const session = known ? { sessionId: known, token: sessionToken! } : await deps.pageTokens.newSession();
  // Per store: one shop's customers never use up another's (hold-caps.ts).
  const clientHash = holdAddressHash(deps.addressKey, store.id, ctx);
  const guest: GuestActor = { kind: 'guest', sessionId: session.sessionId };
  try {
    const answer = await holdForPage<Pick<PageHoldResponse, 'hold'>>(
      ctx.as(guest),
      {
        store_id: store.id,
        ...slotAsked(body),
        page_session: session.sessionId,
        client_address_hash: clientHash,
        address_cap: deps.config.holdCaps.perAddress,
      },
      { exhausted: contended },
    );
    return { hold: answer.hold, page_session: session.token };
  } catch (err) {
    return withRetryAfter(err, deps.db, store.id, { addressHash: clientHash }, deps.clock.now());
  }
}

async function sessionOf(ctx: PageReadContext, token: string | undefined): Promise<string> {
  const session = await ctx.page.pageTokens.session(token);
  // Without the session that placed it, a hold reads as missing (it is nobody else's business).
  if (!session) throw notFound('Hold');
  return session;
}

export async function releasePageHold(
  ctx: PageContext,
  slug: string,
  holdId: string,
  sessionToken: string | undefined,
) {
  const store = await pageStore(ctx, slug);
  const sessionId = await sessionOf(ctx, sessionToken);
  return releaseForPage<{ hold_id: string; released: boolean; noop: boolean }>(
    ctx.as<GuestActor>({ kind: 'guest', sessionId }),
    { store_id: store.id, hold_id: holdId, page_session: sessionId },
  );
}

export async function confirmPageHold(
  ctx: PageContext,
  slug: string,
  holdId: string,
  sessionToken: string | undefined,
  body: PageConfirmBody,
): Promise<PageConfirmResponse> {
  const store = await pageStore(ctx, slug);
  const sessionId = await sessionOf(ctx, sessionToken);
  const actor = ctx.actor;
  if (actor?.kind !== 'customer')
    throw new AppError('WRONG_TOKEN_KIND', 'Confirming needs the customer token from the email code');
  const answer = await confirmForPage<Omit<PageConfirmResponse, 'manage_url'>>(
    ctx.as(actor),
    {
      store_id: store.id,
      hold_id: holdId,
      page_session: sessionId,
      customer_id: actor.customerId,
      guest_note: body.guest_note?.trim() || null,
    },
    { exhausted: contended },
  );
  const a = answer.appointment;
  return {
    ...answer,
    manage_url: await ctx.page.manageUrl({
      appointmentId: a.id,
      storeId: store.id,
      slug: store.slug,
      endsAt: a.ends_at,
    }),
  };
}
