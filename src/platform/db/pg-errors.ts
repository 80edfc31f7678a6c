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

/** The database cannot be reached (or went away mid-query). */
export function isUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e) return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (CONNECTION_ERRNOS.has(code)) return true;
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/i.test(message);
}
