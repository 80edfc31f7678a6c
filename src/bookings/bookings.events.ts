// The data schema of each bookings event (appointments, the walk-in queue, services, service periods,
// holds), from the features' own response schemas; buildApp hands them to the OpenAPI `webhooks` map.
import { Type, type TSchema } from 'typebox';
import { Instant, NullableString, Uuid } from '../platform/http/schemas.ts';
import { ChangedFields, generic, local, previousStatus, type EventData } from '../events/event-payloads.ts';
import { AppointmentFields } from './appointments/appointments.schemas.ts';
import { QueueEntry } from './queue/queue.schemas.ts';
import { Service } from './services/services.schemas.ts';
import { ServicePeriod } from './service-periods/service-periods.schemas.ts';

const appointment = (extra: Record<string, TSchema> = {}, description?: string) =>
  Type.Object(
    { ...AppointmentFields, ...local, ...extra },
    { description: description ?? 'The appointment after the change' },
  );

const queueEntry = (extra: Record<string, TSchema> = {}) =>
  Type.Object({ ...QueueEntry.properties, ...extra }, { description: 'The queue entry after the change' });

export const BOOKING_EVENT_DATA: EventData = {
  'appointment.created': appointment({}, 'The appointment as booked (a walk-in seat books one too, source walk_in)'),
  'appointment.rescheduled': appointment({
    previous: Type.Object(
      { unit_id: Uuid, starts_at: Instant, ends_at: Instant },
      { description: 'Where and when it was before' },
    ),
  }),
  'appointment.cancelled': appointment(
    { previous: previousStatus },
    'The cancelled appointment (the cancellation reason, a private note, is not included)',
  ),
  'appointment.checked_in': appointment({ previous: previousStatus }),
  'appointment.completed': appointment({ previous: previousStatus }),
  'appointment.no_show': appointment({ previous: previousStatus }),
  'appointment.settled': appointment(
    {
      settlement: Type.Object(
        {
          amount_pence: Type.Integer(),
          currency: Type.String(),
          method: Type.String({ description: 'cash or card_machine' }),
          settled_at: Instant,
          settled_by_name: NullableString,
        },
        { description: 'The settlement this change recorded' },
      ),
      previous: Type.Object({ status: Type.String(), payment_status: Type.String() }),
    },
    'The appointment after the balance was recorded as taken (completed, paid)',
  ),
  'appointment.deposit_paid': generic('The appointment after its deposit was paid (emitted by online booking)'),
  'queue.joined': queueEntry(),
  'queue.called': queueEntry({ hold_minutes: Type.Integer(), previous: previousStatus }),
  'queue.assigned': queueEntry({ unit_id: Uuid, previous: previousStatus }),
  'queue.removed': queueEntry({
    ended_at: Instant,
    reason: Type.Union([Type.Literal('left'), Type.Literal('no_show')]),
    previous: previousStatus,
  }),
  'service.created': Type.Object(Service.properties, { description: 'The service as created' }),
  'service.updated': Type.Object(
    { ...Service.properties, changed_fields: ChangedFields },
    { description: 'The service after the change' },
  ),
  'service_period.created': Type.Object(ServicePeriod.properties),
  'service_period.updated': Type.Object({
    ...ServicePeriod.properties,
    changed_fields: ChangedFields,
    previous: Type.Object({}, { additionalProperties: true, description: "The changed fields' values before" }),
  }),
  'service_period.deleted': Type.Object(ServicePeriod.properties, { description: 'The period as it was when deleted' }),
  'hold.created': generic('A hold on a unit (emitted by online booking)'),
  'hold.released': generic('A hold released (emitted by online booking)'),
  'hold.expired': generic('A hold expired (emitted by online booking)'),
};
