// The database's own limit for a scenario: the service's functions called in this process with a
// request context built exactly as the HTTP layer builds it (actor, Idempotency-Key claim, clock),
// over the service's own pg adapter. What runs is precisely the SQL the service sends, in the same
// transactions and order; what is missing is HTTP: routing, JWT verification, validation,
// serialisation, rate limiting and logging.
import pino from 'pino';
import type { Actor } from '../../src/platform/auth/actor.ts';
import { principalOf } from '../../src/platform/auth/actor.ts';
import { systemClock } from '../../src/platform/clock.ts';
import type { RequestContext } from '../../src/platform/context.ts';
import type { Database, QueryOptions, QueryResult, Row, Tx } from '../../src/platform/db/port.ts';
import { AppError } from '../../src/platform/errors/app-error.ts';
import { readIdempotencyClaim } from '../../src/platform/idempotency.ts';

const silent = pino({ level: 'silent' });

export interface DirectCall {
  actor: Actor;
  method: string;
  /** Path with query string, as the HTTP request would carry it (the idempotency scope uses it). */
  url: string;
  body?: unknown;
  idempotencyKey?: string;
}

export function contextFor<A extends Actor>(db: Database, call: DirectCall & { actor: A }): RequestContext<A> {
  const headers: Record<string, string> = call.idempotencyKey ? { 'idempotency-key': call.idempotencyKey } : {};
  const fakeRequest = { method: call.method, url: call.url, headers, body: call.body ?? null } as any;
  return {
    actor: call.actor,
    db,
    clock: systemClock,
    requestId: 'bench',
    log: silent as any,
    idempotency: readIdempotencyClaim(fakeRequest, principalOf(call.actor)),
    replayed: false,
  };
}

/** How an error from a direct call is reported: the same "status CODE" the HTTP run tallies. */
export function outcomeOf(err: unknown): string {
  if (err instanceof AppError) return `${err.status} ${err.code}`;
  return `exception ${(err as Error)?.message?.slice(0, 80)}`;
}

export interface Recorded {
  sql: string;
  params: readonly unknown[];
  ms: number;
}

/** Wraps a Database so every statement of one call is recorded (for counting and EXPLAIN). */
export function recording(db: Database): { db: Database; take(): Recorded[] } {
  let log: Recorded[] = [];
  const wrap = (q: { query: Tx['query'] }): Tx => ({
    async query<T extends Row>(
      sql: string,
      params?: readonly unknown[],
      options?: QueryOptions,
    ): Promise<QueryResult<T>> {
      const t0 = performance.now();
      try {
        return await q.query<T>(sql, params, options);
      } finally {
        // A statement that failed (a refusal raised by a write function) was still a round trip.
        log.push({ sql, params: params ?? [], ms: performance.now() - t0 });
      }
    },
  });
  const wrapped: Database = {
    engine: db.engine,
    query: (sql, params, options) => wrap(db).query(sql, params, options),
    transaction: (fn) =>
      db.transaction((tx) => {
        log.push({ sql: 'BEGIN', params: [], ms: 0 });
        return fn(wrap(tx)).finally(() => log.push({ sql: 'COMMIT', params: [], ms: 0 }));
      }),
    exec: (sql) => db.exec(sql),
    ping: () => db.ping(),
    close: () => db.close(),
  };
  return {
    db: wrapped,
    take() {
      const out = log;
      log = [];
      return out;
    },
  };
}
