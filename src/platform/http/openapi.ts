// The OpenAPI 3.1 document and the docs page come from the same schemas the routes validate with.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../errors/error-codes.ts';
import { ErrorEnvelope } from './schemas.ts';
import { REPLAY_HEADER } from '../idempotency.ts';

const ERROR_REF = { $ref: 'ErrorEnvelope#' };

export async function registerOpenApi(app: FastifyInstance) {
  app.addSchema(ErrorEnvelope);

  // Every documented route answers errors in the envelope and states its security.
  app.addHook('onRoute', (route) => {
    const rule = route.config?.auth;
    if (!rule || route.url.startsWith('/docs')) return;
    const schema = (route.schema ??= {});
    const response = ((schema as any).response ??= {});
    if (rule.kind !== 'public') {
      response['4xx'] ??= ERROR_REF;
      response['5xx'] ??= ERROR_REF;
      (schema as any).security ??= [rule.kind === 'admin' ? { adminToken: [] } : { bearerAuth: [] }];
      const scopeNote =
        rule.kind === 'merchant'
          ? `Merchant token, scope ${rule.scope}${rule.entitlements?.length ? `; entitlements ${rule.entitlements.join(', ')}` : ''}${rule.permissions?.length ? `; permissions ${rule.permissions.join(', ')}` : ''}.`
          : rule.kind === 'customer'
            ? `Customer token, scope ${rule.scope}.`
            : rule.kind === 'merchant_or_customer'
              ? `Merchant token with scope ${rule.merchantScope}, or customer token with scope ${rule.customerScope}.`
              : 'Operator surface: Authorization: Bearer <ADMIN_TOKEN>.';
      // One schema object can be shared by a route's variants (HEAD, trailing slash): note it once.
      const description: string | undefined = (schema as any).description;
      if (!description?.includes(scopeNote)) (schema as any).description = [description, scopeNote].filter(Boolean).join('\n\n');
    }
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Bookings and customer back office API',
        version: '1.0.0',
        description: [
          'Merchant bookings, customer management and customer notification preferences.',
          'Every non-2xx answer is `{ "error": { "code", "message", "requestId" } }`; the codes are listed in `x-error-codes`.',
          `Mutating requests may carry \`Idempotency-Key\` (1-255 visible ASCII characters). The first successful result is stored for 24 hours with its effect; a retry with the same key and body replays it with the header \`${REPLAY_HEADER}: true\`; the same key with a different body answers 422 IDEMPOTENCY_KEY_REUSED; a duplicate while the first is still running answers 409 IDEMPOTENCY_IN_PROGRESS. Failed requests store nothing.`,
          'Rate limits answer 429 RATE_LIMITED with Retry-After.',
        ].join('\n\n'),
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'The ADMIN_TOKEN of the deployment' },
        },
      },
      'x-error-codes': Object.fromEntries(Object.entries(ERRORS).map(([code, e]) => [code, e])),
    } as any,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', logLevel: 'warn' });
}
