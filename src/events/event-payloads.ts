// The shared parts of the event payload schemas, and the OpenAPI 3.1 `webhooks` map made from them
// (one entry per type: the POST a receiver gets). Each feature describes its own events from its own
// response schemas in `<feature>.events.ts` (bookings, customers, notifications, webhooks, classes);
// buildApp merges those maps and hands this map to the OpenAPI builder, so events/ imports no feature
// and platform/ imports neither. Types other engineers emit (hold.*, appointment.deposit_paid) are
// described generically until their owners refine them.
import { Type, type TSchema } from 'typebox';
import { EVENT_TYPES, type EventType } from './event-types.ts';
import { eventSchema } from './events.schemas.ts';

/** Each event type's data schema; every type must have one by the time webhooksDocument runs. */
export type EventData = Partial<Record<EventType, TSchema>>;

export const ChangedFields = Type.Array(Type.String(), { description: 'The fields this change changed' });
export const local = {
  local_starts_at: Type.String({ description: 'starts_at as store-local wall time, YYYY-MM-DDTHH:MM:SS' }),
  local_ends_at: Type.String({ description: 'ends_at as store-local wall time' }),
};
export const previousStatus = Type.Object({ status: Type.String() }, { description: 'What the change replaced' });
export const generic = (description: string) => Type.Object({}, { additionalProperties: true, description });

/** The OpenAPI 3.1 `webhooks` map: each type as the POST a receiver gets, with its payload schema. */
export function webhooksDocument(data: EventData): Record<string, unknown> {
  const missing = EVENT_TYPES.filter((type) => !data[type]);
  if (missing.length) throw new Error(`event types without a payload schema: ${missing.join(', ')}`);
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `event_${type.replaceAll('.', '_')}`,
          summary: `${type} event`,
          description:
            'Delivered to webhook endpoints subscribed to this type, and carried by the feed and the stream (which add `cursor`). `id` is the de-duplication key.',
          requestBody: { required: true, content: { 'application/json': { schema: eventSchema(type, data[type]!) } } },
          responses: { '2XX': { description: 'Received; any 2xx acknowledges the delivery' } },
          // The receiver authenticates the sender by the Standard Webhooks signature (components.securitySchemes).
          security: [{ webhookSignature: [] }],
        },
      },
    ]),
  );
}
