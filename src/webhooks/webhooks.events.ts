// The data schema of the webhook endpoint event; buildApp hands it to the OpenAPI `webhooks` map.
import { Type } from 'typebox';
import type { EventData } from '../events/event-payloads.ts';
import { Endpoint as WebhookEndpoint } from './webhooks.schemas.ts';

export const WEBHOOK_EVENT_DATA: EventData = {
  'webhook_endpoint.disabled': Type.Object(WebhookEndpoint.properties, {
    description:
      "The webhook endpoint after the service disabled it (never its secret): disabled_reason 'gone' (it answered 410) or 'failing' (every attempt failed for 5 days)",
  }),
};
