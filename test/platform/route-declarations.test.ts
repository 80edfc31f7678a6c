// declareRoutes (src/platform/http/route.ts) registers what Fastify's shorthand with config.auth and
// schema { operationId, tags, summary, ... } would: checked on a bare Fastify instance (no database).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { auth } from '../../src/platform/auth/guard.ts';
import { declareRoutes } from '../../src/platform/http/route.ts';

const Params = Type.Object({ id: Type.String() });
const Answer = Type.Object({ id: Type.String() });

test('a declared operation is registered with config.auth and the schema the hand-written route had', async () => {
  const app = Fastify();
  const seen: Array<{ method: unknown; url: string; config: unknown; schema: unknown }> = [];
  app.addHook('onRoute', (r) => {
    if (r.method !== 'HEAD') seen.push({ method: r.method, url: r.url, config: r.config, schema: r.schema });
  });
  await app.register(
    async (plugin) => {
      const route = declareRoutes(plugin, { tags: ['Units'], config: { onlineCors: true } });
      route.get('/:id', 'getThing', auth.merchantRead(), {
        summary: 'One thing',
        schema: { params: Params, response: { 200: Answer } },
        handler: async (request) => ({ id: request.params.id }),
      });
      route.post('', 'makeThing', auth.public(), {
        summary: 'Make one',
        description: 'More words',
        tags: ['Operator'],
        config: { rateLimit: { max: 1, timeWindow: 1000 } },
        hide: true,
        schema: { response: { 200: Answer } },
        handler: async () => ({ id: 'new' }),
      });
    },
    { prefix: '/things' },
  );
  await app.ready();

  // As JSON: key order included (the OpenAPI document follows it), Fastify's own symbols left out.
  assert.equal(
    JSON.stringify(seen),
    JSON.stringify([
      {
        method: 'GET',
        url: '/things/:id',
        config: { auth: auth.merchantRead(), onlineCors: true },
        schema: {
          operationId: 'getThing',
          tags: ['Units'],
          summary: 'One thing',
          params: Params,
          response: { 200: Answer },
        },
      },
      {
        method: 'POST',
        url: '/things',
        config: { auth: auth.public(), onlineCors: true, rateLimit: { max: 1, timeWindow: 1000 } },
        schema: {
          operationId: 'makeThing',
          tags: ['Operator'],
          summary: 'Make one',
          description: 'More words',
          hide: true,
          response: { 200: Answer },
        },
      },
    ]),
  );
  const res = await app.inject({ method: 'GET', url: '/things/abc' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { id: 'abc' });
  await app.close();
});
