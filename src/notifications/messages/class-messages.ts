// What a class booking's events tell its customer (issue 44): the class booking as the messages name it,
// and the plans for one class.booking.* event. planner.ts inserts them as it inserts an appointment's;
// the sender re-checks the booking's status at send time (sender.ts, CLASS_KIND_STATUS).
import type { Queryable } from '../../platform/db/port.ts';
import type { FeedRow } from '../../events/feed.repository.ts';
import { NOT_SENT } from './message-kinds.ts';
import { HOUR_MS, type Plan } from './message-plan.ts';

/** The class.booking.* events the planner reads. */
export const CLASS_PLANNED_TYPES = [
  'class.booking.created',
  'class.booking.waitlisted',
  'class.booking.promoted',
  'class.booking.accepted',
  'class.booking.cancelled',
] as const;

/** Once-only messages share this version (one confirmation, one waitlist notice per booking). */
const ONCE = 'v1';

export interface ClassMessage {
  storeId: string;
  customerId: string | null;
  subjectId: string;
  contacts: { email: string | null; phone: string | null };
  plan: Plan;
}

interface ClassContext {
  customer_id: string | null;
  guest_email: string | null;
  store_name: string;
  timezone: string;
  reminder_lead_hours: number;
  class_name: string;
  unit_name: string | null;
  email: string | null;
  phone: string | null;
  page_slug: string | null;
}

/**
 * The plans for one class booking event (none when the booking is not this store's). publicUrl: the
 * service's origin; with it, an offer at a store whose booking page is on links to the page, which
 * accepts it after the email code (?offer=<booking id>: the id alone grants nothing).
 */
export async function classMessagePlans(
  q: Queryable,
  event: FeedRow,
  now: Date,
  publicUrl: string | null = null,
): Promise<ClassMessage[]> {
  const data = event.data as Record<string, any>;
  const res = await q.query<ClassContext>(
    `SELECT b.customer_id, b.guest_email, s.name AS store_name, s.timezone, s.reminder_lead_hours, c.name AS class_name,
            u.display_name AS unit_name, cu.email, cu.phone,
            CASE WHEN s.booking_page_enabled THEN s.booking_page_slug END AS page_slug
       FROM class_bookings b
       JOIN class_occurrences o ON o.id = b.occurrence_id
       JOIN classes c ON c.id = o.class_id
       JOIN stores s ON s.id = b.store_id
       LEFT JOIN units u ON u.id = o.unit_id
       LEFT JOIN customers cu ON cu.id = b.customer_id
      WHERE b.id = $1 AND b.store_id = $2`,
    [data.id, event.store_id],
  );
  const b = res.rows[0];
  if (!b) return [];
  const render: Plan['render'] = {
    storeName: b.store_name,
    timezone: b.timezone,
    serviceName: b.class_name,
    unitName: b.unit_name,
    appointmentId: null,
    startsAt: data.starts_at,
    endsAt: data.ends_at,
    waitlistPosition: data.waitlist_position ?? null,
    offerExpiresAt: data.offer_expires_at ?? null,
    offerUrl: publicUrl && b.page_slug ? `${publicUrl}/book/${b.page_slug}?offer=${encodeURIComponent(data.id)}` : null,
  };
  const message = (kind: Plan['kind'], version: string, dueAt = now, suppressReason?: string): ClassMessage => ({
    storeId: event.store_id,
    customerId: b.customer_id,
    subjectId: data.id,
    contacts: b.customer_id ? { email: b.email, phone: b.phone } : { email: b.guest_email, phone: null },
    plan: { kind, version, dueAt, plannedStart: data.starts_at, render, suppressReason },
  });
  const reminder = () => {
    const dueAt = new Date(Date.parse(data.starts_at) - b.reminder_lead_hours * HOUR_MS);
    // Booked after the reminder's time: the confirmation just sent serves as the reminder.
    return message('class_reminder', ONCE, dueAt, dueAt.getTime() <= now.getTime() ? NOT_SENT.insideLead : undefined);
  };
  switch (event.type) {
    case 'class.booking.created':
      return [message('class_confirmation', ONCE), reminder()];
    case 'class.booking.waitlisted':
      return [message('class_waitlisted', ONCE)];
    case 'class.booking.promoted':
      // auto: booked at once; offer: the offer, one per offer made (an offer is made once per booking).
      return data.status === 'confirmed'
        ? [message('class_promoted', ONCE), reminder()]
        : [message('class_offer', ONCE)];
    case 'class.booking.accepted':
      return [message('class_confirmation', ONCE), reminder()];
    case 'class.booking.cancelled':
      // Only a booking that was booked, waiting or offered hears of its cancellation; the sender checks it still is.
      return [message('class_cancelled', ONCE)];
    default:
      return [];
  }
}
