import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { auth } from '../auth/guard.ts';
import type { Database } from '../db/port.ts';

const Health = Type.Object({ status: Type.String() });

export function healthRoutes(db: Database) {
  return async (app: FastifyInstance) => {
    app.get(
      '/healthz',
      { config: { auth: auth.public() }, schema: { hide: true, response: { 200: Health } } as any },
      async () => ({
        status: 'ok',
      }),
    );
    app.get(
      '/readyz',
      {
        config: { auth: auth.public() },
        schema: {
          hide: true,
          response: { 200: Health, 503: Type.Object({ status: Type.String(), error: Type.Any() }) },
        } as any,
      },
      async (request, reply) => {
        try {
          await db.ping();
          return { status: 'ready' };
        } catch {
          return reply.code(503).send({
            status: 'unavailable',
            error: { code: 'SERVICE_UNAVAILABLE', message: 'The database cannot be reached', requestId: request.id },
          });
        }
      },
    );
    app.get('/openapi.json', { config: { auth: auth.public() }, schema: { hide: true } as any }, async () =>
      app.swagger(),
    );
  };
}
