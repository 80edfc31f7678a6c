// One-statement writes: a mutating request done by ONE call of a database function, in the implicit
// transaction of that statement. One round trip instead of BEGIN, the Idempotency-Key claim, the
// reads, the change, the audit/event/idempotency flush and COMMIT (ten for a booking before).
//
// The convention (db/functions/write-helpers.sql holds the SQL half):
//   fn(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb {"replayed": bool, "body": ...}
// - claim: the request's Idempotency-Key claim or null. The replay is the statement's (callSql): it
//   runs bbo_idempotency_claim before the function and answers a stored body as {"replayed": true}
//   without calling it. The function only stores: it ends with bbo_write_finish, which writes the
//   audit rows, the events and the idempotency record with the body, as inTransaction's flush does;
// - actor: the audit row's actor part (audit.ts), so the function writes the same audit rows, and is
//   passed to bbo_write_finish last;
// - at: ctx.clock.now(), never the database's now(), so tests can stand at any instant;
// - refusals are raised as SQLSTATE BB001 (message = error code, detail = message) and become the
//   same AppError here (pg-errors.ts); any other database error (a constraint) is the caller's to map.
// Deadlocks and serialization failures are retried as inTransaction retries them.
//
// The handoff is typed (writeFunction): each function's request and result are TypeBox schemas in a
// `<feature>.writes.ts` module beside its caller. The request is checked before it is sent and the
// result's body after it comes back, each by a compiled checker (a few microseconds against a round
// trip of milliseconds: docs/decisions/typed-sql-handoff.md), so a field renamed on one side fails
// the first test that calls the function. test/platform/write-functions.test.ts checks every
// function's `req->>'field'` reads against its request schema, whether or not a test sends the field.
import type { Static, TProperties, TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import type { RequestContext } from './context.ts';
import { retryTransient, type TransactionOptions } from './context.ts';
import { auditActor, eventActor } from './audit.ts';
import { refusalOf } from './db/pg-errors.ts';
import { AppError } from './errors/app-error.ts';
import { ERRORS, type ErrorCode } from './errors/error-codes.ts';

export interface OneStatementOptions extends TransactionOptions {
  /** Maps a database error the function let through (such as an exclusion violation); rethrows otherwise. */
  mapError?: (err: unknown) => never;
}

/** A write function of db/functions/ with its request and result body as schemas, compiled once. */
export interface WriteFunction<Req extends TSchema = TSchema, Res extends TSchema = TSchema> {
  /** The SQL function's name, e.g. 'bbo_merchant_book'. */
  readonly fn: string;
  readonly request: Req;
  readonly result: Res;
  readonly checkRequest: Validator<TProperties, Req>;
  readonly checkResult: Validator<TProperties, Res>;
}

/**
 * The schema without its string formats. The checks at the call are of shape (names, types, nulls):
 * the route's schema has checked the formats of what the request carries, and the columns' types make
 * what the result carries. A uuid and a date-time format cost about 3.5 us a field here, the shape
 * alone about 0.1 us for three fields (docs/decisions/typed-sql-handoff.md).
 */
function shapeOf<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(shapeOf) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k]) => k !== 'format')
      .map(([k, v]) => [k, shapeOf(v)]),
  ) as T;
}

/** Declares a write function's handoff; `request` should refuse unknown keys (additionalProperties: false). */
export function writeFunction<Req extends TSchema, Res extends TSchema>(
  fn: string,
  request: Req,
  result: Res,
): WriteFunction<Req, Res> {
  return Object.freeze({
    fn,
    request,
    result,
    checkRequest: Compile(shapeOf(request)),
    checkResult: Compile(shapeOf(result)),
  });
}

/** Names where a value broke its schema (paths and rules only: never the values, which may be personal). */
function mismatch(fn: string, side: 'request' | 'result', check: Validator, value: unknown): Error {
  const where = [...check.Errors(value)].slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`);
  return new Error(`${fn}: the ${side} does not match its schema (${where.join('; ')})`);
}

/** The request checked against its schema, for a write function called inside a caller's transaction (bbo_import_appointments). */
export function checkRequest<Req extends TSchema>(call: WriteFunction<Req>, req: Static<Req>): void {
  if (!call.checkRequest.Check(req)) throw mismatch(call.fn, 'request', call.checkRequest, req);
}

/** The answer checked against the result schema, for a write function called inside a caller's transaction. */
export function checkResult<Res extends TSchema>(call: WriteFunction<TSchema, Res>, body: unknown): Static<Res> {
  if (!call.checkResult.Check(body)) throw mismatch(call.fn, 'result', call.checkResult, body);
  return body as Static<Res>;
}

/**
 * The statement that calls a write function; name is a constant of the caller, never input. The
 * Idempotency-Key claim comes first in it: COALESCE evaluates its arguments left to right and only
 * up to the first non-null one, so the claim takes its lock and refuses (IDEMPOTENCY_IN_PROGRESS,
 * IDEMPOTENCY_KEY_REUSED) before the write runs, and a stored reply is answered without running it.
 * The write functions do not claim (db/functions/README.md): call them through this statement.
 */
export function callSql(fn: string): string {
  return `SELECT coalesce(bbo_idempotency_claim($1::jsonb, $3::timestamptz), ${fn}($1::jsonb, $2::jsonb, $3::timestamptz, $4::jsonb)) AS result`;
}

function asAppError(err: unknown): never {
  const refusal = refusalOf(err);
  if (refusal && refusal.code in ERRORS) {
    const code = refusal.code as ErrorCode;
    throw new AppError(code, refusal.message, code === 'IDEMPOTENCY_IN_PROGRESS' ? { 'retry-after': '1' } : undefined);
  }
  throw err;
}

/** Runs the write function for the request, both checked against its schemas; returns the response body. */
export async function oneStatementWrite<Req extends TSchema, Res extends TSchema>(
  ctx: RequestContext,
  call: WriteFunction<Req, Res>,
  req: Static<Req>,
  options: OneStatementOptions = {},
): Promise<Static<Res>> {
  const { fn } = call;
  checkRequest(call, req);
  const c = ctx.idempotency;
  const claim = c
    ? {
        principal: c.principal,
        method: c.method,
        path: c.path,
        key: c.key,
        request_hash: c.requestHash,
        lock_key: c.lockKey,
      }
    : null;
  const actor = { ...auditActor(ctx), event_actor: eventActor(ctx.actor) };
  const params = [
    claim && JSON.stringify(claim),
    JSON.stringify(actor),
    ctx.clock.now().toISOString(),
    JSON.stringify(req),
  ];
  const sql = callSql(fn);
  const result = await retryTransient(async () => {
    try {
      return (await ctx.db.query<{ result: { replayed: boolean; body: unknown } }>(sql, params)).rows[0].result;
    } catch (err) {
      if (refusalOf(err)) asAppError(err);
      if (options.mapError) options.mapError(err);
      throw err;
    }
  }, options);
  const body = checkResult(call, result.body);
  if (result.replayed) ctx.replayed = true;
  return body;
}
