// One way to declare an API operation. The line that opens it says what the operation is (method,
// path, operationId, who may call it); the object says the rest (summary, schemas, handler):
//
//   const route = declareRoutes(app, { tags: ['Units'] });
//   route.patch('/:unitId', 'updateUnit', auth.merchantWrite(), {
//     summary: 'Partial update',
//     schema: { params: UnitParams, body: UpdateUnitBody, response: { 200: UnitResponse } },
//     handler: async (request) => updateStoreUnit(merchantContext(request), request.params.unitId, request.body),
//   });
//
// It registers exactly what Fastify's own shorthand would,
//   app.patch('/:unitId', { config: { auth }, schema: { operationId, tags, summary, params, body, response } }, handler),
// so the guard (auth/guard.ts) reads config.auth and the OpenAPI hook (openapi.ts) reads the schema as
// before. request.params/query/body/headers and the handler's answer are typed from the TypeBox
// schemas, as with Fastify's TypeBox type provider. docs/decisions/platform.md, "Route declarations".
import type {
  ContextConfigDefault,
  FastifyContextConfig,
  FastifyInstance,
  HTTPMethods,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AuthRule } from '../auth/guard.ts';

/** A path under the plugin's prefix: '' (the prefix itself) or one starting with '/'. */
export type RoutePath = '' | `/${string}`;

/** The route config besides the auth rule (a route's rate limit, the online CORS flag). */
type ExtraConfig = Omit<FastifyContextConfig, 'auth'>;

/** A handler whose request and answer are typed from the operation's schemas. */
export type Handler<P, Q, H, B, R> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  { params: P; querystring: Q; headers: H; body: B; response: R },
  TypeBoxTypeProvider
>;

/** What an operation says besides its method, path, operationId and auth rule. */
export interface Operation<P = unknown, Q = unknown, H = unknown, B = unknown, R = unknown> {
  summary: string;
  description?: string;
  /** The feature's tags (declareRoutes) when not given. */
  tags?: string[];
  /** Route config besides auth, over the feature's (declareRoutes). */
  config?: ExtraConfig;
  /** Left out of the OpenAPI document. */
  hide?: boolean;
  /** Fastify's schema parts (TypeBox): what the request is validated against, what the answer is shaped by. */
  schema: { params?: P; querystring?: Q; headers?: H; body?: B; response: R };
  handler: Handler<P, Q, H, B, R>;
}

type Declare = <P = unknown, Q = unknown, H = unknown, B = unknown, R = unknown>(
  path: RoutePath,
  operationId: string,
  auth: AuthRule,
  operation: Operation<P, Q, H, B, R>,
) => void;

/** route.get/post/put/patch/delete: one operation each. */
export type RouteDeclarer = Record<'get' | 'post' | 'put' | 'patch' | 'delete', Declare>;

/** What a feature's operations share: their tags, and route config such as the online CORS flag. */
export interface RouteDefaults {
  tags?: string[];
  config?: ExtraConfig;
}

/**
 * The error answers a public operation documents itself (openapi.ts adds them to every other):
 * spread into its response map, `response: { 200: X, ...ENVELOPE_ERRORS }`.
 */
export const ENVELOPE_ERRORS = { '4xx': { $ref: 'ErrorEnvelope#' }, '5xx': { $ref: 'ErrorEnvelope#' } };

/** The options Fastify gets: config { auth, ... } and schema { operationId, tags, summary, ... }. */
export function routeOptions(
  method: HTTPMethods,
  url: string,
  operationId: string,
  auth: AuthRule,
  operation: Operation,
  defaults: RouteDefaults = {},
) {
  const { summary, description, config, hide, handler } = operation;
  const tags = operation.tags ?? defaults.tags;
  const schema = {
    operationId,
    ...(tags && { tags }),
    summary,
    ...(description !== undefined && { description }),
    ...(hide && { hide }),
    ...operation.schema,
  };
  return { method, url, config: { auth, ...defaults.config, ...config }, schema, handler };
}

/** The feature's declarer of operations on `app` (its plugin's instance, so under the plugin's prefix). */
export function declareRoutes(app: FastifyInstance<any, any, any, any, any>, defaults: RouteDefaults = {}) {
  const on =
    (method: HTTPMethods): Declare =>
    (path, operationId, auth, operation) => {
      app.route(routeOptions(method, path, operationId, auth, operation as Operation, defaults) as any);
    };
  const declarer: RouteDeclarer = {
    get: on('GET'),
    post: on('POST'),
    put: on('PUT'),
    patch: on('PATCH'),
    delete: on('DELETE'),
  };
  return declarer;
}
