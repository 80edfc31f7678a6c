// /api/v1/api-keys: a store's keys for its own software (create shows the key once; list; revoke).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import { Instant, NullableInstant, Uuid } from '../../platform/http/schemas.ts';
import * as service from './api-keys.service.ts';

const tags = ['Staff'];
const Scope = Type.Union([Type.Literal('merchant:read'), Type.Literal('merchant:write')]);
const ApiKey = Type.Object({
  id: Uuid,
  name: Type.String(),
  scopes: Type.Array(Type.String()),
  hint: Type.String(),
  created_at: Instant,
  last_used_at: NullableInstant,
});
const CreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    scopes: Type.Array(Scope, { minItems: 1, uniqueItems: true }),
  },
  { additionalProperties: false },
);
const KeyParams = Type.Object({ keyId: Uuid }, { additionalProperties: false });

export async function apiKeysRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags });
  route.post('', 'createApiKey', auth.merchantWrite(), {
    summary: 'Create a store API key (the key is shown only in this answer)',
    description: 'Send it as `Authorization: Bearer bbo_live_...`. Only its hash is kept.',
    schema: { body: CreateBody, response: { 200: Type.Object({ api_key: ApiKey, key: Type.String() }) } },
    handler: (request) => service.createApiKey(merchantContext(request), request.body),
  });

  route.get('', 'listApiKeys', auth.merchantWrite(), {
    summary: "The store's API keys (never the keys themselves)",
    schema: { response: { 200: Type.Object({ api_keys: Type.Array(ApiKey) }) } },
    handler: (request) => service.listApiKeys(merchantContext(request)),
  });

  route.delete('/:keyId', 'revokeApiKey', auth.merchantWrite(), {
    summary: 'Revoke an API key: refused from the next request',
    schema: { params: KeyParams, response: { 200: Type.Object({ revoked: Type.Boolean() }) } },
    handler: (request) => service.revokeApiKey(merchantContext(request), request.params.keyId),
  });
}
