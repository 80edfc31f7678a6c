// Every event type the service emits, as one frozen list: the feed's and the webhooks' `types`
// filters are checked against it, and the OpenAPI document's `webhooks` map is built from it.
export const EVENT_TYPES = Object.freeze([
  'appointment.created',
  'appointment.rescheduled',
  'appointment.cancelled',
  'appointment.checked_in',
  'appointment.completed',
  'appointment.no_show',
  'appointment.settled',
  'appointment.deposit_paid',
  'queue.joined',
  'queue.called',
  'queue.assigned',
  'queue.removed',
  'customer.updated',
  'customer.blocked',
  'customer.unblocked',
  'customer.archived',
  'customer.restored',
  'service.created',
  'service.updated',
  'service_period.created',
  'service_period.updated',
  'service_period.deleted',
  'notification_preferences.updated',
  'hold.created',
  'hold.released',
  'hold.expired',
  'webhook_endpoint.disabled',
  'customer.created',
  'class.booking.created',
  'class.booking.waitlisted',
  'class.booking.promoted',
  'class.booking.accepted',
  'class.booking.offer_expired',
  'class.booking.cancelled',
  'class.booking.attended',
  'class.booking.no_show',
] as const);

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
