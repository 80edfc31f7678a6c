// Webhook endpoints of the token's store: register, list, change, delete, rotate the secret, read
// the delivery log, and send deliveries again. The worker (delivery-worker.ts) does the sending.
import type { Config } from '../config.ts';
import { inTransaction, type MerchantContext } from '../platform/context.ts';
import { audit } from '../platform/audit.ts';
import { AppError, badRequest, notFound } from '../platform/errors/app-error.ts';
import { EVENT_TYPES, isEventType } from '../events/event-types.ts';
import * as endpoints from './endpoints.repository.ts';
import * as deliveries from './deliveries.repository.ts';
import { presentEndpoint, type EndpointView } from './webhooks.presenter.ts';
import { newSecret } from './signing.ts';
import { assertTargetAllowed, type Resolver } from './target-guard.ts';
import type { CreateBody, UpdateBody } from './webhooks.schemas.ts';

/** After a rotation the old secret keeps signing alongside the new one this long. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

export interface WebhookDeps {
  settings: Config['webhooks'];
  resolve?: Resolver;
}

function checkTypes(types: string[] | null | undefined): string[] | null | undefined {
  if (types === undefined || types === null) return types;
  const unknown = types.filter((t) => !isEventType(t));
  if (unknown.length) {
    throw badRequest(
      `event_types: unknown event type${unknown.length > 1 ? 's' : ''} ${unknown.map((t) => `"${t}"`).join(', ')}; known types: ${EVENT_TYPES.join(', ')}`,
    );
  }
  return [...new Set(types)];
}

function checkUrl(url: string, deps: WebhookDeps): Promise<string> {
  return assertTargetAllowed(
    url,
    { requireHttps: deps.settings.requireHttps, allowPrivate: deps.settings.allowPrivateTargets },
    deps.resolve,
  );
}

async function ownEndpoint(ctx: MerchantContext, id: string): Promise<endpoints.EndpointRow> {
  const row = await endpoints.findEndpoint(ctx.db, ctx.actor.storeId, id);
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

export async function createEndpoint(
  ctx: MerchantContext,
  deps: WebhookDeps,
  body: CreateBody,
): Promise<{ endpoint: EndpointView & { secret: string } }> {
  const eventTypes = checkTypes(body.event_types) ?? null;
  const url = await checkUrl(body.url, deps);
  return inTransaction(ctx, async (tx) => {
    const secret = newSecret();
    const row = await endpoints.insertEndpoint(tx, {
      storeId: ctx.actor.storeId,
      url,
      description: body.description ?? null,
      eventTypes,
      secret,
      now: ctx.clock.now().toISOString(),
    });
    await audit(tx, ctx, { action: 'webhook_endpoint.create', entity: 'webhook_endpoint', entityId: row.id });
    return { endpoint: { ...presentEndpoint(row), secret } };
  });
}

export async function listEndpoints(ctx: MerchantContext): Promise<{ endpoints: EndpointView[] }> {
  return { endpoints: (await endpoints.listEndpoints(ctx.db, ctx.actor.storeId)).map(presentEndpoint) };
}

export async function updateEndpoint(
  ctx: MerchantContext,
  deps: WebhookDeps,
  id: string,
  body: UpdateBody,
): Promise<{ endpoint: EndpointView }> {
  const eventTypes = checkTypes(body.event_types);
  const url = body.url === undefined ? undefined : await checkUrl(body.url, deps);
  return inTransaction(ctx, async (tx) => {
    const found = await endpoints.lockEndpoint(tx, ctx.actor.storeId, id);
    if (!found) throw notFound('Webhook endpoint');
    const row = await endpoints.updateEndpoint(
      tx,
      ctx.actor.storeId,
      id,
      { url, eventTypes, enabled: body.enabled, description: body.description },
      ctx.clock.now().toISOString(),
    );
    const fields = Object.keys(body).filter((k) => k !== 'store_id');
    await audit(tx, ctx, {
      action: 'webhook_endpoint.update',
      entity: 'webhook_endpoint',
      entityId: id,
      details: { fields },
    });
    return { endpoint: presentEndpoint(row) };
  });
}

export async function deleteEndpoint(ctx: MerchantContext, id: string): Promise<{ deleted: true; id: string }> {
  return inTransaction(ctx, async (tx) => {
    if (!(await endpoints.deleteEndpoint(tx, ctx.actor.storeId, id))) throw notFound('Webhook endpoint');
    await audit(tx, ctx, { action: 'webhook_endpoint.delete', entity: 'webhook_endpoint', entityId: id });
    return { deleted: true as const, id };
  });
}

export async function rotateSecret(
  ctx: MerchantContext,
  id: string,
): Promise<{ endpoint: EndpointView & { secret: string } }> {
  return inTransaction(ctx, async (tx) => {
    const now = ctx.clock.now();
    const secret = newSecret();
    const row = await endpoints.rotateSecret(
      tx,
      ctx.actor.storeId,
      id,
      secret,
      now.toISOString(),
      new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
    );
    if (!row) throw notFound('Webhook endpoint');
    await audit(tx, ctx, { action: 'webhook_endpoint.rotate_secret', entity: 'webhook_endpoint', entityId: id });
    return { endpoint: { ...presentEndpoint(row), secret } };
  });
}

export async function listDeliveries(ctx: MerchantContext, id: string, q: { limit?: number; cursor?: string }) {
  await ownEndpoint(ctx, id);
  const limit = q.limit ?? 50;
  const rows = await deliveries.listAttempts(ctx.db, id, q.cursor ?? null, limit + 1);
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { deliveries: page, next_cursor: hasMore ? page[page.length - 1].id : null, has_more: hasMore };
}

function assertEnabled(row: endpoints.EndpointRow): void {
  if (!row.enabled)
    throw new AppError('WEBHOOK_ENDPOINT_DISABLED', 'The endpoint is disabled: enable it (PATCH enabled true) first');
}

export async function retryDelivery(ctx: MerchantContext, id: string, eventId: string) {
  return inTransaction(ctx, async (tx) => {
    const row = await endpoints.lockEndpoint(tx, ctx.actor.storeId, id);
    if (!row) throw notFound('Webhook endpoint');
    assertEnabled(row);
    const delivery = await deliveries.retryDelivery(tx, id, eventId, ctx.clock.now().toISOString());
    if (!delivery) throw notFound('Delivery');
    await audit(tx, ctx, {
      action: 'webhook_delivery.retry',
      entity: 'webhook_endpoint',
      entityId: id,
      details: { event_id: eventId },
    });
    return { delivery };
  });
}

export async function replay(ctx: MerchantContext, id: string, since: string) {
  const sinceAt = new Date(since);
  if (Number.isNaN(sinceAt.getTime())) throw badRequest('since must be an ISO 8601 instant');
  return inTransaction(ctx, async (tx) => {
    const row = await endpoints.lockEndpoint(tx, ctx.actor.storeId, id);
    if (!row) throw notFound('Webhook endpoint');
    assertEnabled(row);
    const replayed = await deliveries.replayFailed(tx, id, sinceAt.toISOString(), ctx.clock.now().toISOString());
    await audit(tx, ctx, {
      action: 'webhook_delivery.replay',
      entity: 'webhook_endpoint',
      entityId: id,
      details: { since: sinceAt.toISOString(), replayed },
    });
    return { replayed, since: sinceAt.toISOString() };
  });
}
