// Every failure, of every kind, leaves as { error: { code, message, requestId } }.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';
import type { ErrorCode } from './error-codes.ts';
import { ERRORS } from './error-codes.ts';
import { isUnavailable, pgCode, PG } from '../db/pg-errors.ts';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { BASELINE_HEADERS } from '../http/security-headers.ts';

export function sendError(reply: FastifyReply, request: FastifyRequest, code: ErrorCode, message: string) {
  return reply
    .code(ERRORS[code].status)
    .type('application/json')
    .send({
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
      return { code: 'MALFORMED_JSON', message: 'The body is not valid JSON' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return {
        code: 'MALFORMED_JSON',
        message: 'The body is empty although Content-Type is application/json; send a JSON body or no Content-Type',
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as application/json' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { code: 'MALFORMED_REQUEST', message: "The body's length does not match its Content-Length" };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 'PAYLOAD_TOO_LARGE', message: 'The body is larger than the limit' };
    case 'FST_ERR_BAD_URL':
      return { code: 'MALFORMED_URL', message: 'The path is not a valid URL (bad percent-encoding)' };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { code: 'URI_TOO_LONG', message: `A path segment is longer than ${MAX_PARAM_LENGTH} characters` };
  }
  if (err instanceof SyntaxError || err.statusCode === 400) {
    return { code: 'MALFORMED_JSON', message: 'The request could not be parsed' };
  }
  if (err.statusCode === 413) return { code: 'PAYLOAD_TOO_LARGE', message: 'The body is larger than the limit' };
  if (err.statusCode === 415) return { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as application/json' };
  if (err.statusCode === 429) return { code: 'RATE_LIMITED', message: 'Too many requests' };
  return null;
}

/** The longest path parameter the router matches (routerOptions.maxParamLength); longer is 414 URI_TOO_LONG. */
export const MAX_PARAM_LENGTH = 200;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Errors the framework raises before any hook or route runs (a path that is not a URL, a path
 * parameter over the router's limit): Fastify's `frameworkErrors` option, which otherwise answers
 * with its own body.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id).headers(BASELINE_HEADERS);
  const known = classify(err);
  if (known) return sendError(reply, request, known.code, known.message);
  request.log.error({ err }, 'framework error');
  return sendError(reply, request, 'INTERNAL', 'Something went wrong; the failure has been logged');
}

/** Node's answers to requests it cannot parse (a header block over the limit, a malformed request line). */
export function clientErrorHandler(err: NodeJS.ErrnoException & { code?: string }, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message]: [number, ErrorCode, string] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'HEADERS_TOO_LARGE', 'The request headers are larger than the limit']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT', 'The request was not received in time']
        : [400, 'MALFORMED_REQUEST', 'The request is not valid HTTP'];
  const requestId = randomUUID();
  const body = JSON.stringify({ error: { code, message, requestId } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
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
      return sendError(
        reply,
        request,
        'VALIDATION_FAILED',
        'A text value contains a character that cannot be stored (such as \\u0000)',
      );
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, request, 'INTERNAL', 'Something went wrong; the failure has been logged');
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    // The path exists for other methods: 405 with Allow, as HTTP asks, rather than a 404.
    const allowed = METHODS.filter((method) => method !== request.method && app.findRoute({ method, url: path }));
    if (allowed.length) {
      reply.header('allow', allowed.join(', '));
      return sendError(
        reply,
        request,
        'METHOD_NOT_ALLOWED',
        `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`,
      );
    }
    return sendError(reply, request, 'ROUTE_NOT_FOUND', `No route for ${request.method} ${path}`);
  });
}
