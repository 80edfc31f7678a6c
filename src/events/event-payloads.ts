// The data schema of every event type, built from each feature's own response schemas, and the
// OpenAPI 3.1 `webhooks` map made from them (one entry per type: the POST a receiver gets).
// Types other engineers emit (hold.*, appointment.deposit_paid, webhook_endpoint.disabled) are
// described generically until their owners refine them here.
import { Type, type TSchema } from 'typebox';
import { Instant, NullableInstant, NullableString, Uuid } from '../platform/http/schemas.ts';
import { AppointmentFields } from '../bookings/appointments/appointments.schemas.ts';
import { QueueEntry } from '../bookings/queue/queue.schemas.ts';
import { Service } from '../bookings/services/services.schemas.ts';
import { ServicePeriod } from '../bookings/service-periods/service-periods.schemas.ts';
import { BlockRecord } from '../customers/blocks/blocks.schemas.ts';
import { TOGGLE_NAMES } from '../notifications/preferences.schemas.ts';
import { Endpoint as WebhookEndpoint } from '../webhooks/webhooks.schemas.ts';
import { ClassBookingRecord } from '../classes/class-bookings.schemas.ts';
import { EVENT_TYPES, type EventType } from './event-types.ts';
import { eventSchema } from './events.schemas.ts';

const ChangedFields = Type.Array(Type.String(), { description: 'The fields this change changed' });
const local = {
  local_starts_at: Type.String({ description: 'starts_at as store-local wall time, YYYY-MM-DDTHH:MM:SS' }),
  local_ends_at: Type.String({ description: 'ends_at as store-local wall time' }),
};
const appointment = (extra: Record<string, TSchema> = {}, description?: string) =>
  Type.Object({ ...AppointmentFields, ...local, ...extra }, { description: description ?? 'The appointment after the change' });
const previousStatus = Type.Object({ status: Type.String() }, { description: 'What the change replaced' });

const queueEntry = (extra: Record<string, TSchema> = {}) =>
  Type.Object({ ...QueueEntry.properties, ...extra }, { description: 'The queue entry after the change' });

// Block records without the merchant's private note; id repeats customer_id so data.id is always the customer.
const { block_reason: _note, ...blockShared } = BlockRecord.properties;
const customerBlock = Type.Object(
  { id: Uuid, ...blockShared, changed_fields: ChangedFields },
  { description: 'The customer\'s block record at this store after the change (the block note is never included)' },
);

const classBooking = (description: string, extra: Record<string, TSchema> = {}) =>
  Type.Object({ ...ClassBookingRecord.properties, ...local, ...extra }, { description });

const generic = (description: string) => Type.Object({}, { additionalProperties: true, description });

export const EVENT_DATA: Record<EventType, TSchema> = {
  'appointment.created': appointment({}, 'The appointment as booked (a walk-in seat books one too, source walk_in)'),
  'appointment.rescheduled': appointment({
    previous: Type.Object({ unit_id: Uuid, starts_at: Instant, ends_at: Instant }, { description: 'Where and when it was before' }),
  }),
  'appointment.cancelled': appointment({ previous: previousStatus }, 'The cancelled appointment (the cancellation reason, a private note, is not included)'),
  'appointment.checked_in': appointment({ previous: previousStatus }),
  'appointment.completed': appointment({ previous: previousStatus }),
  'appointment.no_show': appointment({ previous: previousStatus }),
  'appointment.settled': appointment({
    settlement: Type.Object({
      amount_pence: Type.Integer(),
      currency: Type.String(),
      method: Type.String({ description: 'cash or card_machine' }),
      settled_at: Instant,
      settled_by_name: NullableString,
    }, { description: 'The settlement this change recorded' }),
    previous: Type.Object({ status: Type.String(), payment_status: Type.String() }),
  }, 'The appointment after the balance was recorded as taken (completed, paid)'),
  'appointment.deposit_paid': generic('The appointment after its deposit was paid (emitted by online booking)'),
  'queue.joined': queueEntry(),
  'queue.called': queueEntry({ hold_minutes: Type.Integer(), previous: previousStatus }),
  'queue.assigned': queueEntry({ unit_id: Uuid, previous: previousStatus }),
  'queue.removed': queueEntry({
    ended_at: Instant,
    reason: Type.Union([Type.Literal('left'), Type.Literal('no_show')]),
    previous: previousStatus,
  }),
  'customer.updated': Type.Object({
    id: Uuid,
    name: NullableString,
    phone: NullableString,
    email: NullableString,
    merchant_note_updated_at: Type.Optional(NullableInstant),
    erased_at: Type.Optional(Instant),
    blocked: Type.Optional(Type.Boolean()),
    blocked_channels: Type.Optional(Type.Array(Type.String())),
    changed_fields: ChangedFields,
    source: Type.Optional(Type.Literal('import', { description: 'Present when an import made the change (src/imports/)' })),
  }, {
    description: 'The customer after an edit (identity fields; merchant_note is named in changed_fields but its text is never included), '
      + 'after an operator erasure (identity null, erased_at set), or the block record after a change of muted channels or block note',
  }),
  'customer.created': Type.Object({
    id: Uuid,
    name: NullableString,
    phone: NullableString,
    email: NullableString,
    source: Type.Literal('import', { description: 'How the customer arrived (today only an import emits this)' }),
  }, { description: 'A customer new to the platform, created by an import (src/imports/); no message is sent' }),
  'customer.blocked': customerBlock,
  'customer.unblocked': customerBlock,
  'customer.archived': customerBlock,
  'customer.restored': customerBlock,
  'service.created': Type.Object(Service.properties, { description: 'The service as created' }),
  'service.updated': Type.Object({ ...Service.properties, changed_fields: ChangedFields }, { description: 'The service after the change' }),
  'service_period.created': Type.Object(ServicePeriod.properties),
  'service_period.updated': Type.Object({
    ...ServicePeriod.properties,
    changed_fields: ChangedFields,
    previous: Type.Object({}, { additionalProperties: true, description: 'The changed fields\' values before' }),
  }),
  'service_period.deleted': Type.Object(ServicePeriod.properties, { description: 'The period as it was when deleted' }),
  'notification_preferences.updated': Type.Object({
    customer_id: Uuid,
    store_id: Uuid,
    ...Object.fromEntries(TOGGLE_NAMES.map((t) => [t, Type.Boolean()])),
    changed_fields: ChangedFields,
  }, { description: 'The customer\'s own change of their preferences for this store (every toggle as now in effect)' }),
  'hold.created': generic('A hold on a unit (emitted by online booking)'),
  'hold.released': generic('A hold released (emitted by online booking)'),
  'hold.expired': generic('A hold expired (emitted by online booking)'),
  'webhook_endpoint.disabled': Type.Object(WebhookEndpoint.properties, {
    description: "The webhook endpoint after the service disabled it (never its secret): disabled_reason 'gone' (it answered 410) or 'failing' (every attempt failed for 5 days)",
  }),
  'class.booking.created': classBooking('A class booking with a seat (status confirmed)'),
  'class.booking.waitlisted': classBooking('A class booking on the waitlist (status waitlisted, with its waitlist_position)'),
  'class.booking.promoted': classBooking('A waitlisted booking given a freed seat: confirmed (waitlist_mode auto) or offered until offer_expires_at (promotion_pending)'),
  'class.booking.accepted': classBooking('An offered seat accepted (confirmed)', { previous: previousStatus }),
  'class.booking.offer_expired': classBooking('An offered seat not accepted in time (promotion_expired); the next in line is offered it'),
  'class.booking.cancelled': classBooking('A cancelled class booking (reason occurrence_cancelled when the class was cancelled)', {
    previous: Type.Optional(previousStatus),
    reason: Type.Optional(Type.String()),
  }),
  'class.booking.attended': classBooking('A class booking checked in (attended, attended_at)', { previous: previousStatus }),
  'class.booking.no_show': classBooking('A class booking marked a no-show', { previous: previousStatus }),
};

/** The OpenAPI 3.1 `webhooks` map: each type as the POST a receiver gets, with its payload schema. */
export function webhooksDocument(): Record<string, unknown> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `event_${type.replaceAll('.', '_')}`,
          summary: `${type} event`,
          description: 'Delivered to webhook endpoints subscribed to this type, and carried by the feed and the stream (which add `cursor`). `id` is the de-duplication key.',
          requestBody: { required: true, content: { 'application/json': { schema: eventSchema(type, EVENT_DATA[type]) } } },
          responses: { '2XX': { description: 'Received; any 2xx acknowledges the delivery' } },
          // The receiver authenticates the sender by the Standard Webhooks signature (components.securitySchemes).
          security: [{ webhookSignature: [] }],
        },
      },
    ]),
  );
}
