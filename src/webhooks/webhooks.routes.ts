// /api/v1/webhooks/endpoints: a store's webhook endpoints, their delivery log, retry and replay.
// Every route is merchant:write, reads included: the surface hands out signing secrets and shows
// receivers' answers, which is configuration, not back-office reading.
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { auth } from '../platform/auth/guard.ts';
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
type Params = Static<typeof EndpointParams>;

export async function webhooksRoutes(app: FastifyInstance) {
  const deps = (): webhooks.WebhookDeps => ({ settings: app.deps.config.webhooks });

  app.post<{ Body: CreateBody }>('', {
    config: { auth: auth.merchantWrite() },
    schema: {
      operationId: 'createWebhookEndpoint',
      tags,
      summary: 'Register a webhook endpoint',
      description:
        "Events of the token's store are POSTed to url, signed per Standard Webhooks with the returned secret (shown only here and on rotate). The URL's host is resolved and checked: private, loopback and link-local targets are refused.",
      body: CreateBody,
      response: { 200: EndpointSecretResponse },
    },
    handler: (request) => webhooks.createEndpoint(merchantContext(request), deps(), request.body),
  });

  app.get<{ Querystring: Static<typeof StoreQuery> }>('', {
    config: { auth: auth.merchantWrite() },
    schema: {
      operationId: 'listWebhookEndpoints',
      tags,
      summary: "List the store's webhook endpoints (never their secrets)",
      querystring: StoreQuery,
      response: { 200: EndpointListResponse },
    },
    handler: (request) => webhooks.listEndpoints(merchantContext(request)),
  });

  app.patch<{ Params: Params; Body: UpdateBody }>('/:endpointId', {
    config: { auth: auth.merchantWrite() },
    schema: {
      operationId: 'updateWebhookEndpoint',
      tags,
      summary: 'Change an endpoint (url, event_types, enabled, description)',
      description: 'enabled false pauses deliveries; true resumes them and clears disabled_reason and the failure run.',
      params: EndpointParams,
      body: UpdateBody,
      response: { 200: EndpointResponse },
    },
    handler: (request) =>
      webhooks.updateEndpoint(merchantContext(request), deps(), request.params.endpointId, request.body),
  });

  app.delete<{ Params: Params; Querystring: Static<typeof StoreQuery> }>('/:endpointId', {
    config: { auth: auth.merchantWrite() },
    schema: {
      operationId: 'deleteWebhookEndpoint',
      tags,
      summary: 'Delete an endpoint and its delivery log',
      params: EndpointParams,
      querystring: StoreQuery,
      response: { 200: DeletedResponse },
    },
    handler: (request) => webhooks.deleteEndpoint(merchantContext(request), request.params.endpointId),
  });

  app.post<{ Params: Params }>('/:endpointId/rotate-secret', {
    config: { auth: auth.merchantWrite() },
    schema: {
      operationId: 'rotateWebhookSecret',
      tags,
      summary: 'Replace the signing secret',
      description:
        'The old secret keeps signing alongside the new one for 24 h: both signatures are sent, space-separated, in webhook-signature.',
      params: EndpointParams,
      response: { 200: EndpointSecretResponse },
    },
    handler: (request) => webhooks.rotateSecret(merchantContext(request), request.params.endpointId),
  });

  app.get<{ Params: Params; Querystring: Static<typeof DeliveriesQuery> }>('/:endpointId/deliveries', {
    config: { auth: auth.merchantWrite() },
    schema: {
      operationId: 'listWebhookDeliveries',
      tags,
      summary: 'The delivery log: every attempt, newest first',
      params: EndpointParams,
      querystring: DeliveriesQuery,
      response: { 200: AttemptsResponse },
    },
    handler: (request) => webhooks.listDeliveries(merchantContext(request), request.params.endpointId, request.query),
  });

  app.post<{ Params: Static<typeof DeliveryParams> }>('/:endpointId/deliveries/:eventId/retry', {
    config: { auth: auth.merchantWrite() },
    schema: {
      operationId: 'retryWebhookDelivery',
      tags,
      summary: 'Send one event to this endpoint again, now',
      description:
        "Works whatever the delivery's state (a delivered event is sent again, with the same webhook-id). 404 when the event was never dispatched to this endpoint; 409 WEBHOOK_ENDPOINT_DISABLED when the endpoint is disabled.",
      params: DeliveryParams,
      response: { 200: DeliveryResponse },
    },
    handler: (request) =>
      webhooks.retryDelivery(merchantContext(request), request.params.endpointId, request.params.eventId),
  });

  app.post<{ Params: Params; Body: Static<typeof ReplayBody> }>('/:endpointId/replay', {
    config: { auth: auth.merchantWrite() },
    schema: {
      operationId: 'replayWebhookDeliveries',
      tags,
      summary: 'Send every failed delivery since a time again',
      description:
        'Deliveries dispatched at or after since whose last attempt failed (given up, or waiting for a retry) are made due now.',
      params: EndpointParams,
      body: ReplayBody,
      response: { 200: ReplayResponse },
    },
    handler: (request) => webhooks.replay(merchantContext(request), request.params.endpointId, request.body.since),
  });
}
