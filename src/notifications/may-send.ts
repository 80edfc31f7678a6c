// The one question the rest of the service asks before messaging a customer: may store S send
// customer C a message of category K on channel X? It combines the customer's own toggles for the
// store with the store's block record. Callers outside this folder use only this module.
import type { Queryable } from '../platform/db/port.ts';
import { CHANNELS, type Channel } from './channels/channels.ts';
import { loadSendStates } from './preferences.repository.ts';
import { DEFAULT_TOGGLES, TOGGLE_NAMES, type Toggle, type Toggles } from './preferences.schemas.ts';

export { CHANNELS, type Channel };

/** Message categories, each governed by exactly one of the customer's toggles. */
export const CATEGORY_TOGGLE = {
  class_events: 'classEventsEnabled', // booked, cancelled, promoted from the waitlist...
  class_reminders: 'classReminders', // "your class starts soon"
  vouchers: 'voucherEventsEnabled', // voucher earned, about to expire
  stamps: 'stampEventsEnabled', // stamp added, card complete
  memberships: 'membershipEventsEnabled', // membership started, renewed, ending
  penalties: 'penaltyEventsEnabled', // no-show or late-cancel penalty applied
  marketing: 'marketingEnabled', // promotions: opt-in, off by default
} as const satisfies Record<string, Toggle>;
export type Category = keyof typeof CATEGORY_TOGGLE;
export const CATEGORIES = Object.keys(CATEGORY_TOGGLE) as Category[];

/**
 * Why, in precedence order: the first that applies is reported. Store-side refusals come before the
 * customer's own, so a merchant sees "blocked" rather than a toggle the customer happens to have off.
 */
export const REASONS = [
  'customer_not_found',
  'customer_erased',
  'guest_transactional_only', // a guest (no account) gets only messages about their own booking, never marketing
  'blocked', // the store blocked the customer: every channel, every category
  'channel_muted', // the store muted this channel for the customer
  'messages_muted', // the customer muted all messages from this store
  'category_disabled', // the customer turned this category off (marketing is off until turned on)
  'allowed',
] as const;
export type Reason = (typeof REASONS)[number];

export interface SendState {
  erased: boolean;
  blocked: boolean;
  blockedChannels: readonly Channel[];
  toggles: Toggles;
}

export interface SendDecision {
  allowed: boolean;
  reason: Reason;
}

const deny = (reason: Reason): SendDecision => ({ allowed: false, reason });

/**
 * What a guest (a booking or queue entry with contact details but no account) may receive: the
 * messages about the booking they made, on the contact they gave. They never consented to
 * marketing and have no toggles to turn other categories on, so everything else is refused.
 */
export const GUEST_CATEGORIES: readonly Category[] = ['class_events', 'class_reminders'];

/** The rule itself, on loaded state (null: no such customer; 'guest': no account at all). */
export function decideSend(state: SendState | null | 'guest', category: Category, channel: Channel): SendDecision {
  if (!(category in CATEGORY_TOGGLE)) throw new Error(`unknown message category ${category}`);
  if (!CHANNELS.includes(channel)) throw new Error(`unknown channel ${channel}`);
  if (state === 'guest')
    return GUEST_CATEGORIES.includes(category)
      ? { allowed: true, reason: 'allowed' }
      : deny('guest_transactional_only');
  if (!state) return deny('customer_not_found');
  if (state.erased) return deny('customer_erased');
  if (state.blocked) return deny('blocked');
  if (state.blockedChannels.includes(channel)) return deny('channel_muted');
  if (state.toggles.messagesMuted) return deny('messages_muted');
  if (!state.toggles[CATEGORY_TOGGLE[category]]) return deny('category_disabled');
  return { allowed: true, reason: 'allowed' };
}

export interface SendQuestion {
  storeId: string;
  /** null for a guest: then guestAddress is the email or phone the message goes to. */
  customerId: string | null;
  category: Category;
  channel: Channel;
  guestAddress?: string | null;
}

/**
 * May the store send this customer this kind of message on this channel? Where the customer saved
 * nothing for the store the spec's defaults apply; where the store has no block record nothing is
 * blocked or muted. Pass the caller's transaction to decide on the state it is about to act on.
 */
export async function maySend(q: Queryable, question: SendQuestion): Promise<SendDecision> {
  return (await maySendMany(q, [question]))[0];
}

/** The same question for many messages at once (the sender's batch), in one round trip. */
export async function maySendMany(q: Queryable, questions: readonly SendQuestion[]): Promise<SendDecision[]> {
  if (questions.length === 0) return [];
  const rows = await loadSendStates(
    q,
    questions.map((x) => ({ storeId: x.storeId, customerId: x.customerId, address: x.guestAddress ?? null })),
  );
  return questions.map((question, i) => {
    const row = rows[i];
    // A guest whose address belongs to a customer is that customer: their "no" holds however they booked.
    if (question.customerId === null && row === null) return decideSend('guest', question.category, question.channel);
    const state: SendState | null = row && {
      erased: row.erased_at !== null,
      blocked: row.blocked === true,
      blockedChannels: (row.blocked_channels ?? []) as Channel[],
      toggles: Object.fromEntries(TOGGLE_NAMES.map((t) => [t, row[t] ?? DEFAULT_TOGGLES[t]])) as Toggles,
    };
    // Marketing consent: the customer's own saved choice for the store, else the consent recorded
    // with their activity there (the roster's marketing_opted_in), else off.
    if (state && row && row.marketingEnabled === null && row.marketing_opted_in === true)
      state.toggles.marketingEnabled = true;
    return decideSend(state, question.category, question.channel);
  });
}
