// Wires read-routing.ts into the HTTP app: every request context can hand out its read handle
// (reads), and every successful write answers with its WAL position in X-Read-After, remembered
// for the caller and the store. Off (no hook, no extra round trip) unless DATABASE_READ_URL is set.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../auth/actor.ts';
import { principalOf } from '../auth/actor.ts';
import type { RequestContext } from '../context.ts';
import type { Database } from './port.ts';
import { READ_AFTER_HEADER, type ReadRouter } from './read-routing.ts';
import { formatLsn, parseLsn } from './wal-position.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The keys whose last write a read by actor about storeId must see. */
export function positionKeys(actor: Actor, storeId?: string | null): string[] {
  const keys = [`caller:${principalOf(actor)}`];
  const store = actor.kind === 'merchant' ? actor.storeId : storeId;
  if (store) keys.push(`store:${store}`);
  return keys;
}

/** The handle a read service uses: the replica when safe, the primary otherwise (always the primary without a replica). */
export function readHandle(ctx: RequestContext, storeId?: string | null): Promise<Database> {
  return ctx.reads ? ctx.reads(storeId) : Promise.resolve(ctx.db);
}

/** The reads function a request context carries. */
export function readsFor(router: ReadRouter | null, request: FastifyRequest, actor: Actor): RequestContext['reads'] {
  if (!router) return undefined;
  const header = request.headers[READ_AFTER_HEADER];
  const clientPosition = parseLsn(Array.isArray(header) ? header[0] : header);
  return (storeId) => router.readsFor(positionKeys(actor, storeId), clientPosition);
}

/** After a successful write: its position in X-Read-After, remembered for the caller and the store. */
export function registerWritePositions(app: FastifyInstance, router: ReadRouter): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const ctx = request.requestContext;
    if (!ctx || !WRITE_METHODS.has(request.method) || reply.statusCode >= 400) return payload;
    const body = request.body as { store_id?: unknown } | null | undefined;
    const store = typeof body?.store_id === 'string' ? body.store_id : null;
    const lsn = await router.afterWrite(positionKeys(ctx.actor, store));
    if (lsn !== null) reply.header(READ_AFTER_HEADER, formatLsn(lsn));
    return payload;
  });
}
