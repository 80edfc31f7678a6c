// The data schema of the notification preferences event; buildApp hands it to the OpenAPI `webhooks` map.
import { Type } from 'typebox';
import { Uuid } from '../platform/http/schemas.ts';
import { ChangedFields, type EventData } from '../events/event-payloads.ts';
import { TOGGLE_NAMES } from './preferences.schemas.ts';

export const NOTIFICATION_EVENT_DATA: EventData = {
  'notification_preferences.updated': Type.Object(
    {
      customer_id: Uuid,
      store_id: Uuid,
      ...Object.fromEntries(TOGGLE_NAMES.map((t) => [t, Type.Boolean()])),
      changed_fields: ChangedFields,
    },
    { description: "The customer's own change of their preferences for this store (every toggle as now in effect)" },
  ),
};
