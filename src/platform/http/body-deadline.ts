// A request whose body never finishes must not hold its connection for good (issue 41: one was seen
// open after 400 s, and SIGTERM then waited 16.8 s for it):
// - Node's requestTimeout bounds the time to receive a whole request (BODY_TIMEOUT_MS, 30 s): Node
//   raises ERR_HTTP_REQUEST_TIMEOUT, answered 408 REQUEST_TIMEOUT in the envelope by
//   clientErrorHandler (error-handler.ts). Node checks its connections on an interval (30 s by
//   default, so a 30 s limit could take a minute): here a tenth of the limit, at most a second.
// - At shutdown (preClose) the connections of requests still receiving their body are ended: no
//   handler has started for them, so nothing is lost, and closing does not wait for their deadline.
import type { FastifyInstance, FastifyRequest } from 'fastify';

export function serverTimeouts(bodyTimeoutMs: number) {
  // Given to http.createServer itself: set on the server afterwards (as Fastify does with its own
  // requestTimeout), Node 24 measured no timeout at all. The headers' own limit (Node's 60 s) is
  // never longer than the whole request's.
  const timeouts = { requestTimeout: bodyTimeoutMs, headersTimeout: Math.min(60_000, bodyTimeoutMs) };
  return {
    requestTimeout: bodyTimeoutMs,
    http: { ...timeouts, connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(bodyTimeoutMs / 10))) },
  };
}

export function registerBodyDeadline(app: FastifyInstance) {
  const receiving = new Set<FastifyRequest>();
  const done = async (request: FastifyRequest) => void receiving.delete(request);
  app.addHook('onRequest', async (request) => {
    if (!request.raw.complete) receiving.add(request);
  });
  // The body has arrived (or there was none) once validation is next.
  app.addHook('preValidation', done);
  app.addHook('onResponse', done);
  app.addHook('onRequestAbort', done);
  app.addHook('preClose', async () => {
    for (const request of receiving) if (!request.raw.complete) request.raw.socket?.destroy();
    receiving.clear();
  });
}
