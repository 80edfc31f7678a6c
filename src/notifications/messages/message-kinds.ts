// The messages the service sends a customer, each with the preference category that governs it
// (the gate, may-send.ts, decides on that category) and the channels it prefers, in order.
import type { Category } from '../may-send.ts';

export const MESSAGE_KINDS = [
  'confirmation',
  'change',
  'cancellation',
  'reminder',
  'queue_called',
  'rebook_nudge',
  // Class bookings (src/notifications/messages/class-messages.ts): their subject is the class booking.
  'class_confirmation',
  'class_waitlisted',
  'class_offer',
  'class_promoted',
  'class_cancelled',
  'class_reminder',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
export type MessageChannel = 'email' | 'sms';

export interface KindRule {
  /**
   * The preference category. Appointments have no toggles of their own, so they use the spec's
   * booking-shaped ones: booking, change and cancellation notices and "you're next" are
   * `class_events` (classEventsEnabled: "booked, cancelled..."), the reminder is `class_reminders`
   * (classReminders), and the rebooking nudge is `marketing` (opt-in).
   */
  category: Category;
  /** The first channel the recipient has an address for is used. */
  channels: readonly MessageChannel[];
  /** Sent only while the appointment is still ahead and live (re-checked at send time). */
  needsLiveFuture: boolean;
}

export const KIND_RULES: Readonly<Record<MessageKind, KindRule>> = Object.freeze({
  confirmation: { category: 'class_events', channels: ['email', 'sms'], needsLiveFuture: true },
  change: { category: 'class_events', channels: ['email', 'sms'], needsLiveFuture: true },
  cancellation: { category: 'class_events', channels: ['email', 'sms'], needsLiveFuture: false },
  reminder: { category: 'class_reminders', channels: ['email', 'sms'], needsLiveFuture: true },
  // A called walk-in is standing nearby: a text reaches them first.
  queue_called: { category: 'class_events', channels: ['sms', 'email'], needsLiveFuture: false },
  rebook_nudge: { category: 'marketing', channels: ['email', 'sms'], needsLiveFuture: false },
  // Class messages: re-checked at send time against the class booking (sender.ts classStaleReason).
  class_confirmation: { category: 'class_events', channels: ['email', 'sms'], needsLiveFuture: false },
  class_waitlisted: { category: 'class_events', channels: ['email', 'sms'], needsLiveFuture: false },
  class_offer: { category: 'class_events', channels: ['email', 'sms'], needsLiveFuture: false },
  class_promoted: { category: 'class_events', channels: ['email', 'sms'], needsLiveFuture: false },
  class_cancelled: { category: 'class_events', channels: ['email', 'sms'], needsLiveFuture: false },
  class_reminder: { category: 'class_reminders', channels: ['email', 'sms'], needsLiveFuture: false },
});

/** Message kinds about a class booking, and the booking status each still needs at send time (null: any). */
export const CLASS_KIND_STATUS: Readonly<Partial<Record<MessageKind, string | null>>> = Object.freeze({
  class_confirmation: 'confirmed',
  class_waitlisted: 'waitlisted',
  class_offer: 'promotion_pending',
  class_promoted: 'confirmed',
  class_cancelled: null,
  class_reminder: 'confirmed',
});

/** Statuses of an appointment that still takes place. */
export const LIVE_APPOINTMENT = new Set(['pending_payment', 'confirmed', 'checked_in']);

/** Why a message was not sent, beyond the gate's own reasons (may-send.ts REASONS). */
export const NOT_SENT = Object.freeze({
  appointmentGone: 'appointment_not_live', // cancelled, no-show or completed by send time
  appointmentPast: 'appointment_in_past', // its start has passed by send time
  superseded: 'superseded', // the appointment moved after this was written; a newer message says so
  rescheduled: 'rescheduled', // a reminder withdrawn because the appointment moved
  cancelled: 'cancelled', // a reminder withdrawn because the appointment was cancelled
  noShow: 'no_show', // a reminder withdrawn because the customer did not come
  insideLead: 'booked_inside_reminder_lead', // booked after the reminder's time: the confirmation serves
  rebooked: 'rebooked', // the customer booked again; no nudge needed
  noAddress: 'no_address', // nothing to send it to
  queueNotCalled: 'queue_entry_not_called', // the entry left or was seated before the text went
  invalidNumber: 'invalid_number', // not an E.164 number: never handed to the provider
  refused: 'refused_permanently', // the SMTP server or provider refused it for good
  exhausted: 'retries_exhausted',
});
