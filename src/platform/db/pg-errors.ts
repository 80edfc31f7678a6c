// PostgreSQL error codes the service reacts to, recognised in this one place.
export const PG = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
  notNullViolation: '23502',
  exclusionViolation: '23P01',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
  invalidTextRepresentation: '22P02',
  datetimeOverflow: '22008',
  numericOutOfRange: '22003',
  // A string PostgreSQL cannot store: a NUL character (\u0000) in text, or one the encoding lacks.
  characterNotInRepertoire: '22021',
  untranslatableCharacter: '22P05',
  // A write on a server in recovery: after a switchover or failover, the old primary (demoted) until
  // HAProxy's check moves new connections to the new one.
  readOnlyTransaction: '25006',
  // Ours, not PostgreSQL's: a write function refused the request (bbo_refuse, db/functions/write-helpers.sql).
  domainRefusal: 'BB001',
} as const;

export function pgCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

export function pgConstraint(err: unknown): string | undefined {
  const c = (err as { constraint?: unknown } | null)?.constraint;
  return typeof c === 'string' ? c : undefined;
}

/**
 * A refusal raised by a write function (bbo_refuse): the message is the error code of
 * errors/error-codes.ts, the detail the message for the client.
 */
export function refusalOf(err: unknown): { code: string; message: string } | undefined {
  if (pgCode(err) !== PG.domainRefusal) return undefined;
  const e = err as { message?: unknown; detail?: unknown };
  return { code: String(e.message ?? ''), message: String(e.detail ?? '') };
}

/** Transient: the same transaction may succeed if run again. */
export function isRetryable(err: unknown): boolean {
  const code = pgCode(err);
  return code === PG.serializationFailure || code === PG.deadlockDetected;
}

const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

/**
 * Why the database could not answer, as a bounded label (the metrics' `reason`):
 * - connection: no connection, or it was lost mid-statement (a network errno, class 08, pg's own
 *   "Connection terminated" while the server or the proxy in front of it went away);
 * - shutdown: the server is stopping or starting (57P01 admin shutdown, 57P02 crash shutdown,
 *   57P03 cannot connect now: a node being promoted, demoted or recovering);
 * - read_only: a write reached a server that is no longer the primary (25006, a demoted node still
 *   reachable for an instant after a switchover);
 * - timeout: no answer in time (connecting, or the adapter's read timeout);
 * - overloaded: 53300 too many connections.
 */
export type UnavailableReason = 'connection' | 'shutdown' | 'read_only' | 'timeout' | 'overloaded';

export function unavailableReason(err: unknown): UnavailableReason | null {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return null;
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  if (
    code === 'ETIMEDOUT' ||
    /connection timeout|timeout exceeded when trying to connect|Query read timeout/i.test(message)
  )
    return 'timeout';
  if (CONNECTION_ERRNOS.has(code) || code.startsWith('08')) return 'connection';
  if (code === '57P01' || code === '57P02' || code === '57P03') return 'shutdown';
  if (code === PG.readOnlyTransaction) return 'read_only';
  if (code === '53300') return 'overloaded';
  if (/Connection terminated|Client has encountered a connection error/i.test(message)) return 'connection';
  return null;
}

/** The database cannot be reached, went away mid-query, or is not (or no longer) the primary. */
export function isUnavailable(err: unknown): boolean {
  return unavailableReason(err) !== null;
}
