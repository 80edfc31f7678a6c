// One-statement writes: a mutating request done by ONE call of a database function, in the implicit
// transaction of that statement. One round trip instead of BEGIN, the Idempotency-Key claim, the
// reads, the change, the audit/event/idempotency flush and COMMIT (ten for a booking before).
//
// The convention (db/functions/write-helpers.sql holds the SQL half):
//   fn(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb {"replayed": bool, "body": ...}
// - claim: the request's Idempotency-Key claim or null; the function calls bbo_idempotency_claim first
//   and returns a stored body as {"replayed": true}; it ends with bbo_write_finish, which writes the
//   audit rows, the events and the idempotency record with the body, as inTransaction's flush does;
// - actor: the audit row's actor part (audit.ts), so the function writes the same audit rows, and is
//   passed to bbo_write_finish last;
// - at: ctx.clock.now(), never the database's now(), so tests can stand at any instant;
// - refusals are raised as SQLSTATE BB001 (message = error code, detail = message) and become the
//   same AppError here (pg-errors.ts); any other database error (a constraint) is the caller's to map.
// Deadlocks and serialization failures are retried as inTransaction retries them.
import type { RequestContext } from './context.ts';
import { retryTransient, type TransactionOptions } from './context.ts';
import { auditActor, eventActor } from './audit.ts';
import { eventsDisabledForBench } from './outbox.ts';
import { refusalOf } from './db/pg-errors.ts';
import { AppError } from './errors/app-error.ts';
import { ERRORS, type ErrorCode } from './errors/error-codes.ts';

export interface OneStatementOptions extends TransactionOptions {
  /** Maps a database error the function let through (such as an exclusion violation); rethrows otherwise. */
  mapError?: (err: unknown) => never;
}

/** The statement that calls a write function; name is a constant of the caller, never input. */
export function callSql(fn: string): string {
  return `SELECT ${fn}($1::jsonb, $2::jsonb, $3::timestamptz, $4::jsonb) AS result`;
}

function asAppError(err: unknown): never {
  const refusal = refusalOf(err);
  if (refusal && refusal.code in ERRORS) {
    const code = refusal.code as ErrorCode;
    throw new AppError(code, refusal.message, code === 'IDEMPOTENCY_IN_PROGRESS' ? { 'retry-after': '1' } : undefined);
  }
  throw err;
}

/** Runs the write function fn (e.g. 'bbo_merchant_book') for the request; returns the response body. */
export async function oneStatementWrite<T>(ctx: RequestContext, fn: string, req: Record<string, unknown>, options: OneStatementOptions = {}): Promise<T> {
  const c = ctx.idempotency;
  const claim = c ? { principal: c.principal, method: c.method, path: c.path, key: c.key, request_hash: c.requestHash, lock_key: c.lockKey } : null;
  // The bench-only EVENTS_DISABLED_FOR_BENCH switch reaches the function's flush (bbo_write_finish).
  const actor = { ...auditActor(ctx), event_actor: eventActor(ctx.actor), ...(eventsDisabledForBench() ? { events_off: true } : {}) };
  const params = [claim && JSON.stringify(claim), JSON.stringify(actor), ctx.clock.now().toISOString(), JSON.stringify(req)];
  const sql = callSql(fn);
  const result = await retryTransient(async () => {
    try {
      return (await ctx.db.query<{ result: { replayed: boolean; body: T } }>(sql, params)).rows[0].result;
    } catch (err) {
      if (refusalOf(err)) asAppError(err);
      if (options.mapError) options.mapError(err);
      throw err;
    }
  }, options);
  if (result.replayed) ctx.replayed = true;
  return result.body;
}
