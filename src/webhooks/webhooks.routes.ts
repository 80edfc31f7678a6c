// /api/v1/webhooks/endpoints: a store's webhook endpoints, their delivery log, retry and replay.
// Every route is merchant:write, reads included: the surface hands out signing secrets and shows
// receivers' answers, which is configuration, not back-office reading.
import type { FastifyInstance } from 'fastify';
import { auth } from '../platform/auth/guard.ts';
import { declareRoutes } from '../platform/http/route.ts';
import { merchantContext } from '../platform/context.ts';
import {
  AttemptsResponse,
  CreateBody,
  DeletedResponse,
  DeliveriesQuery,
  DeliveryParams,
  DeliveryResponse,
  EndpointListResponse,
  EndpointParams,
  EndpointResponse,
  EndpointSecretResponse,
  ReplayBody,
  ReplayResponse,
  StoreQuery,
  UpdateBody,
} from './webhooks.schemas.ts';
import * as webhooks from './webhooks.service.ts';

const tags = ['Webhooks'];

export async function webhooksRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags });
  const deps = (): webhooks.WebhookDeps => ({ settings: app.deps.config.webhooks });

  route.post('', 'createWebhookEndpoint', auth.merchantWrite(), {
    summary: 'Register a webhook endpoint',
    description:
      "Events of the token's store are POSTed to url, signed per Standard Webhooks with the returned secret (shown only here and on rotate). The URL's host is resolved and checked: private, loopback and link-local targets are refused.",
    schema: { body: CreateBody, response: { 200: EndpointSecretResponse } },
    handler: (request) => webhooks.createEndpoint(merchantContext(request), deps(), request.body),
  });

  route.get('', 'listWebhookEndpoints', auth.merchantWrite(), {
    summary: "List the store's webhook endpoints (never their secrets)",
    schema: { querystring: StoreQuery, response: { 200: EndpointListResponse } },
    handler: (request) => webhooks.listEndpoints(merchantContext(request)),
  });

  route.patch('/:endpointId', 'updateWebhookEndpoint', auth.merchantWrite(), {
    summary: 'Change an endpoint (url, event_types, enabled, description)',
    description: 'enabled false pauses deliveries; true resumes them and clears disabled_reason and the failure run.',
    schema: { params: EndpointParams, body: UpdateBody, response: { 200: EndpointResponse } },
    handler: (request) =>
      webhooks.updateEndpoint(merchantContext(request), deps(), request.params.endpointId, request.body),
  });

  route.delete('/:endpointId', 'deleteWebhookEndpoint', auth.merchantWrite(), {
    summary: 'Delete an endpoint and its delivery log',
    schema: { params: EndpointParams, querystring: StoreQuery, response: { 200: DeletedResponse } },
    handler: (request) => webhooks.deleteEndpoint(merchantContext(request), request.params.endpointId),
  });

  route.post('/:endpointId/rotate-secret', 'rotateWebhookSecret', auth.merchantWrite(), {
    summary: 'Replace the signing secret',
    description:
      'The old secret keeps signing alongside the new one for 24 h: both signatures are sent, space-separated, in webhook-signature.',
    schema: { params: EndpointParams, response: { 200: EndpointSecretResponse } },
    handler: (request) => webhooks.rotateSecret(merchantContext(request), request.params.endpointId),
  });

  route.get('/:endpointId/deliveries', 'listWebhookDeliveries', auth.merchantWrite(), {
    summary: 'The delivery log: every attempt, newest first',
    schema: { params: EndpointParams, querystring: DeliveriesQuery, response: { 200: AttemptsResponse } },
    handler: (request) => webhooks.listDeliveries(merchantContext(request), request.params.endpointId, request.query),
  });

  route.post('/:endpointId/deliveries/:eventId/retry', 'retryWebhookDelivery', auth.merchantWrite(), {
    summary: 'Send one event to this endpoint again, now',
    description:
      "Works whatever the delivery's state (a delivered event is sent again, with the same webhook-id). 404 when the event was never dispatched to this endpoint; 409 WEBHOOK_ENDPOINT_DISABLED when the endpoint is disabled.",
    schema: { params: DeliveryParams, response: { 200: DeliveryResponse } },
    handler: (request) =>
      webhooks.retryDelivery(merchantContext(request), request.params.endpointId, request.params.eventId),
  });

  route.post('/:endpointId/replay', 'replayWebhookDeliveries', auth.merchantWrite(), {
    summary: 'Send every failed delivery since a time again',
    description:
      'Deliveries dispatched at or after since whose last attempt failed (given up, or waiting for a retry) are made due now.',
    schema: { params: EndpointParams, body: ReplayBody, response: { 200: ReplayResponse } },
    handler: (request) => webhooks.replay(merchantContext(request), request.params.endpointId, request.body.since),
  });
}
