// CORS for the customer operations (availability, holds, my bookings), which a shop's own website
// calls from the customer's browser. Registered (by onlineRoutes) in the encapsulated context that
// holds only those routes, so merchant operations stay same-origin: they never answer CORS.
//
// Which origins: CORS_ORIGINS (every store) plus the store's own settings.cors_origins. Nothing is
// open to every origin. A preflight carries no token and often no store, so it is allowed when the
// origin is in CORS_ORIGINS or in ANY store's list; the actual request is then checked against the
// list of the store it is about (store_id in the query or body, or the store of the hold or
// appointment named in the path). See docs/decisions/online-booking.md.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import cors from '@fastify/cors';
import type { Queryable } from '../../platform/db/port.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A customer operation that answers CORS for allowed origins. */
    onlineCors?: boolean;
  }
}

const ONLINE_PATHS = /^\/api\/v1\/(bookings\/availability|bookings\/holds|me\/appointments)(\/|\?|$)/;
// What the shop's page may read of an answer: the request id (to quote to support) and, on a 429 or a
// busy answer, when to retry. The same on every answer, refusals included.
// X-Read-After goes both ways: a page reads its write's position and may send it on its next read
// (read-your-writes through a replica, src/platform/db/read-routing.ts).
const EXPOSED_HEADERS = ['x-request-id', 'retry-after', 'x-read-after'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function anyStoreAllows(db: Queryable, origin: string): Promise<boolean> {
  const res = await db.query('SELECT 1 FROM stores WHERE cors_origins @> ARRAY[$1::text] LIMIT 1', [origin]);
  return res.rowCount > 0;
}

/** The store the request is about, when it names one; null when it does not (or it does not exist). */
async function storeOf(db: Queryable, request: FastifyRequest): Promise<string | null> {
  const actor = request.actor;
  if (actor?.kind === 'merchant') return actor.storeId;
  const named =
    (request.query as { store_id?: unknown } | undefined)?.store_id ??
    (request.body as { store_id?: unknown } | undefined)?.store_id;
  if (typeof named === 'string' && UUID.test(named)) return named;
  const params = request.params as { holdId?: string; appointmentId?: string } | undefined;
  const table = params?.holdId ? 'holds' : params?.appointmentId ? 'appointments' : null;
  const id = params?.holdId ?? params?.appointmentId;
  if (!table || !id || !UUID.test(id)) return null;
  const res = await db.query<{ store_id: string }>(`SELECT store_id FROM ${table} WHERE id = $1`, [id]);
  return res.rows[0]?.store_id ?? null;
}

async function storeAllows(db: Queryable, storeId: string, origin: string): Promise<boolean> {
  const res = await db.query('SELECT 1 FROM stores WHERE id = $1 AND cors_origins @> ARRAY[$2::text]', [
    storeId,
    origin,
  ]);
  return res.rowCount > 0;
}

export async function registerOnlineCors(app: FastifyInstance): Promise<void> {
  const { db, config } = app.deps;
  const allowed = async (request: FastifyRequest): Promise<boolean> => {
    const origin = request.headers.origin?.toLowerCase();
    if (!origin) return false;
    if (config.corsOrigins.includes(origin)) return true;
    if (request.method === 'OPTIONS') return ONLINE_PATHS.test(request.url) && anyStoreAllows(db, origin);
    if (!request.routeOptions.config?.onlineCors) return false;
    const storeId = await storeOf(db, request);
    return storeId ? storeAllows(db, storeId, origin) : anyStoreAllows(db, origin);
  };
  await app.register(cors, {
    // After auth and validation: the body (store_id) is parsed and the actor known.
    hook: 'preHandler',
    delegator: async (request: FastifyRequest) => {
      const ok = request.method === 'OPTIONS' && !ONLINE_PATHS.test(request.url) ? false : await allowed(request);
      return ok
        ? {
            origin: request.headers.origin as string,
            methods: ['GET', 'POST', 'DELETE'],
            allowedHeaders: ['authorization', 'content-type', 'idempotency-key', 'x-read-after'],
            exposedHeaders: EXPOSED_HEADERS,
            credentials: false,
            maxAge: 600,
          }
        : { origin: false };
    },
  });
  // Refusals that come before that hook (no token or a bad one, a query or body that fails
  // validation) still reach the page that asked: an error answer carries the same
  // Access-Control-Allow-Origin the operation would, so the shop's site reads the envelope (its code
  // and request id) instead of an opaque network error. Only the origin is echoed; no credentials.
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || request.method === 'OPTIONS' || reply.hasHeader('access-control-allow-origin'))
      return payload;
    if (!(await allowed(request).catch(() => false))) return payload;
    reply.header('access-control-allow-origin', request.headers.origin as string);
    reply.header('access-control-expose-headers', EXPOSED_HEADERS.join(', '));
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${vary}, Origin` : 'Origin');
    return payload;
  });
}
