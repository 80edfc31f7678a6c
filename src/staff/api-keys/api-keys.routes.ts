// /api/v1/api-keys: a store's keys for its own software (create shows the key once; list; revoke).
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { auth } from '../../platform/auth/guard.ts';
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
  app.post<{ Body: Static<typeof CreateBody> }>(
    '',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'createApiKey',
        tags,
        summary: 'Create a store API key (the key is shown only in this answer)',
        description: 'Send it as `Authorization: Bearer bbo_live_...`. Only its hash is kept.',
        body: CreateBody,
        response: { 200: Type.Object({ api_key: ApiKey, key: Type.String() }) },
      },
    },
    (request) => service.createApiKey(merchantContext(request), request.body),
  );

  app.get(
    '',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'listApiKeys',
        tags,
        summary: "The store's API keys (never the keys themselves)",
        response: { 200: Type.Object({ api_keys: Type.Array(ApiKey) }) },
      },
    },
    (request) => service.listApiKeys(merchantContext(request)),
  );

  app.delete<{ Params: Static<typeof KeyParams> }>(
    '/:keyId',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'revokeApiKey',
        tags,
        summary: 'Revoke an API key: refused from the next request',
        params: KeyParams,
        response: { 200: Type.Object({ revoked: Type.Boolean() }) },
      },
    },
    (request) => service.revokeApiKey(merchantContext(request), request.params.keyId),
  );
}
