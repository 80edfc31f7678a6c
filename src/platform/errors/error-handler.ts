// Every failure, of every kind, leaves as { error: { code, message, requestId } }.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';
import type { ErrorCode } from './error-codes.ts';
import { ERRORS } from './error-codes.ts';
import { isUnavailable, pgCode, PG } from '../db/pg-errors.ts';

export function sendError(reply: FastifyReply, request: FastifyRequest, code: ErrorCode, message: string) {
  return reply.code(ERRORS[code].status).type('application/json').send({
    error: { code, message, requestId: request.id },
  });
}

function describeValidation(err: FastifyError): string {
  const first = err.validation?.[0] as
    | { instancePath?: string; message?: string; keyword?: string; params?: Record<string, unknown> }
    | undefined;
  if (!first) return err.message;
  const context = err.validationContext ?? 'body';
  let field = (first.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (first.keyword === 'required' && first.params?.missingProperty) {
    field = [field, String(first.params.missingProperty)].filter(Boolean).join('.');
    return `${context}.${field} is required`;
  }
  if (first.keyword === 'additionalProperties' && first.params?.additionalProperty) {
    field = [field, String(first.params.additionalProperty)].filter(Boolean).join('.');
    return `${context}.${field} is not allowed`;
  }
  const where = field ? `${context}.${field}` : context;
  return `${where} ${first.message ?? 'is invalid'}`;
}

function classify(err: FastifyError): { code: ErrorCode; message: string } | null {
  if (err.validation) return { code: 'VALIDATION_FAILED', message: describeValidation(err) };
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { code: 'MALFORMED_JSON', message: 'The body is not valid JSON' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as application/json' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 'PAYLOAD_TOO_LARGE', message: 'The body is larger than the limit' };
  }
  if (err instanceof SyntaxError || err.statusCode === 400) {
    return { code: 'MALFORMED_JSON', message: 'The request could not be parsed' };
  }
  if (err.statusCode === 413) return { code: 'PAYLOAD_TOO_LARGE', message: 'The body is larger than the limit' };
  if (err.statusCode === 415) return { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as application/json' };
  if (err.statusCode === 429) return { code: 'RATE_LIMITED', message: 'Too many requests' };
  return null;
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      return sendError(reply, request, err.code, err.message);
    }
    const known = classify(err);
    if (known) return sendError(reply, request, known.code, known.message);
    if (isUnavailable(err)) {
      request.log.warn({ err: { message: err.message, code: err.code } }, 'database unavailable');
      reply.header('Retry-After', '2');
      return sendError(reply, request, 'SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; retry shortly');
    }
    // Values a schema let through but the database refused (out of range instants or numbers):
    // the client's input, not our failure.
    const code = pgCode(err);
    if (code === PG.datetimeOverflow || code === PG.numericOutOfRange || code === PG.invalidTextRepresentation) {
      return sendError(reply, request, 'VALIDATION_FAILED', 'A value is out of range');
    }
    if (code === PG.characterNotInRepertoire || code === PG.untranslatableCharacter) {
      return sendError(reply, request, 'VALIDATION_FAILED', 'A text value contains a character that cannot be stored (such as \\u0000)');
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, request, 'INTERNAL', 'Something went wrong; the failure has been logged');
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, request, 'ROUTE_NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`),
  );
}
