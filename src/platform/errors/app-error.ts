import { ERRORS, type ErrorCode } from './error-codes.ts';

/** The one error type. Thrown anywhere; the error handler turns it into the envelope. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, headers?: Record<string, string>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERRORS[code].status;
    this.headers = headers;
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const badRequest = (message: string) => new AppError('VALIDATION_FAILED', message);
