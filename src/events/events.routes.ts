// GET /api/v1/events (the pull feed) and GET /api/v1/events/stream (Server-Sent Events), both
// merchant:read and only ever the token's store. The stream's pump lives as long as the app.
import type { FastifyInstance } from 'fastify';
import { auth } from '../platform/auth/guard.ts';
import { declareRoutes } from '../platform/http/route.ts';
import { merchantContext } from '../platform/context.ts';
import { FeedQuery, FeedResponse, StreamQuery } from './events.schemas.ts';
import { readEvents } from './events.service.ts';
import { EventPump } from './stream/event-pump.ts';
import { openStream } from './stream/stream.service.ts';

const STREAM_DESCRIPTION = [
  "Server-Sent Events: each message is `id: <cursor>`, `event: <type>`, `data: <event JSON>` (the feed's event shape).",
  'Resumes after the `Last-Event-ID` header (or `?after=`) with nothing missed or repeated; without either it starts now.',
  'A comment heartbeat is sent at least every 15 s. A cursor older than the retained history answers 410 CURSOR_EXPIRED before the stream opens.',
].join(' ');

export async function eventsRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Events'] });
  const { db, config } = app.deps;
  const pump = new EventPump(
    db,
    { pollMs: config.events.streamPollMs, heartbeatMs: config.events.streamHeartbeatMs },
    app.log,
  );
  // Streams end before the server waits for its connections, and no poll outlives the app.
  app.addHook('preClose', async () => pump.close());
  app.addHook('onClose', async () => pump.close());

  route.get('', 'listEvents', auth.merchantRead(), {
    summary: "The store's events in order after a cursor (pull feed)",
    description:
      'Oldest first; `next_cursor` resumes. Without `after`, from the beginning of retained history (90 days). A cursor older than that answers 410 CURSOR_EXPIRED.',
    schema: { querystring: FeedQuery, response: { 200: FeedResponse } },
    handler: async (request) => readEvents(merchantContext(request), request.query),
  });

  route.get('/stream', 'streamEvents', auth.merchantRead(), {
    summary: "The store's events as they happen (Server-Sent Events)",
    description: STREAM_DESCRIPTION,
    schema: {
      querystring: StreamQuery,
      headers: {
        type: 'object',
        properties: {
          'last-event-id': {
            type: 'string',
            maxLength: 64,
            description: 'The id of the last event received; the stream resumes after it',
          },
        },
      },
      response: {
        200: {
          description: 'An endless text/event-stream',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
      },
    },
    handler: async (request, reply) => {
      const lastEventId = request.headers['last-event-id'];
      const stream = await openStream(
        merchantContext(request),
        pump,
        request.query,
        typeof lastEventId === 'string' ? lastEventId : undefined,
      );
      reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        // no-store: an authenticated answer (docs/decisions/contract.md); no-transform: no proxy buffering or compression.
        .header('cache-control', 'no-store, no-transform')
        .header('x-accel-buffering', 'no');
      return reply.send(stream);
    },
  });
}
