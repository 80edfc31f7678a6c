// The request context every service function takes first: who is acting, the database, the clock,
// and the request's idempotency claim. Mutating services run their work through inTransaction,
// which owns retries and writes the idempotency record and the audit rows in the same transaction
// as the effect.
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Actor, AdminActor, CustomerActor, MerchantActor } from './auth/actor.ts';
import type { Clock } from './clock.ts';
import type { Database, Tx } from './db/port.ts';
import { isRetryable } from './db/pg-errors.ts';
import { AppError } from './errors/app-error.ts';
import { collectAudit, dropAudit, eventActor, takeAudit } from './audit.ts';
import { collectEvents, dropEvents, takeEvents } from './outbox.ts';
import { writeCollected } from './flush.ts';
import { claimIdempotency, storeIdempotentResult, type IdempotencyClaim } from './idempotency.ts';

export interface RequestContext<A extends Actor = Actor> {
  readonly actor: A;
  readonly db: Database;
  /** The read handle for this request (the replica when safe): set only when a replica is configured. Use readHandle(ctx) (db/read-routing.plugin.ts). */
  readonly reads?: (storeId?: string | null) => Promise<Database>;
  readonly clock: Clock;
  readonly requestId: string;
  readonly log: FastifyBaseLogger;
  readonly idempotency: IdempotencyClaim | null;
  /** Set when the result came from a stored idempotent response. */
  replayed: boolean;
}

export type MerchantContext = RequestContext<MerchantActor>;
export type CustomerContext = RequestContext<CustomerActor>;
export type AdminContext = RequestContext<AdminActor>;

const MAX_ATTEMPTS = 5;

export interface TransactionOptions {
  /** What to report if deadlocks or serialization failures persist past the retries. */
  exhausted?: () => AppError;
}

/**
 * Runs fn in one transaction. Deadlocks and serialization failures are retried a bounded number
 * of times. With an Idempotency-Key the stored result is replayed instead of running fn, and a
 * first result is stored before commit. Audit rows and events fn records are collected and written
 * just before commit, in the same statement as the stored result when there is one. fn's return value is the
 * response body.
 */
export async function inTransaction<T>(
  ctx: RequestContext,
  fn: (tx: Tx) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  return retryTransient(
    () =>
      ctx.db.transaction(async (tx) => {
        const claim = ctx.idempotency;
        if (claim) {
          const stored = await claimIdempotency(tx, claim, ctx.clock.now());
          if (stored) {
            ctx.replayed = true;
            return stored.body as T;
          }
        }
        // Audit rows and events wait for the end of the attempt: a rollback or a retry never writes them.
        collectAudit(tx);
        collectEvents(tx);
        try {
          const result = await fn(tx);
          const collected = { audit: takeAudit(tx), events: takeEvents(tx, ctx.actor && eventActor(ctx.actor)) }; // a job's context may have no actor: system
          if (claim)
            await storeIdempotentResult(tx, claim, { statusCode: 200, body: result }, ctx.clock.now(), collected);
          else await writeCollected(tx, collected);
          return result;
        } finally {
          dropAudit(tx);
          dropEvents(tx);
        }
      }),
    options,
  );
}

/**
 * Runs attempt until it succeeds or fails with something other than a deadlock or serialization
 * failure, a bounded number of times (then options.exhausted, or CONFLICT). Used by inTransaction
 * and by one-statement writes (one-statement.ts).
 */
export async function retryTransient<T>(attempt: () => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isRetryable(err)) throw err;
      if (n >= MAX_ATTEMPTS) {
        throw (
          options.exhausted?.() ?? new AppError('CONFLICT', 'The request collided with concurrent changes; retry it')
        );
      }
      // Jittered backoff so colliding transactions do not collide again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * n));
    }
  }
}

function contextFor<A extends Actor>(request: FastifyRequest, kind: A['kind']): RequestContext<A> {
  const actor = request.actor;
  if (!actor || actor.kind !== kind) {
    // The route's auth rule guarantees this; reaching here means a route declared the wrong rule.
    throw new Error(`route ${request.routeOptions.url} expected a ${kind} actor`);
  }
  return request.context(actor as A);
}

export const merchantContext = (request: FastifyRequest) => contextFor<MerchantActor>(request, 'merchant');
export const customerContext = (request: FastifyRequest) => contextFor<CustomerActor>(request, 'customer');
export const adminContext = (request: FastifyRequest) => contextFor<AdminActor>(request, 'admin');

/** A merchant or a customer (routes declared with auth.merchantOrCustomerRead). */
export type ShopperContext = RequestContext<MerchantActor | CustomerActor>;
export function shopperContext(request: FastifyRequest): ShopperContext {
  const actor = request.actor;
  if (!actor || actor.kind === 'admin' || actor.kind === 'guest')
    throw new Error(`route ${request.routeOptions.url} expected a merchant or customer actor`);
  return request.context(actor);
}

declare module 'fastify' {
  interface FastifyRequest {
    context<A extends Actor>(actor: A): RequestContext<A>;
    requestContext: RequestContext | null;
  }
}
