// The HTTP ceiling: one bare Fastify route on the same Node, no auth, no database, a response
// schema. Whatever the service loses against this is the cost of its own work per request.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get(
  '/bare',
  { schema: { response: { 200: { type: 'object', properties: { ok: { type: 'boolean' } } } } } },
  async () => ({ ok: true }),
);
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
