// The typed API client: openapi-fetch over the types generated from the service's own OpenAPI document
// (schema.d.ts). Request and response types are derived from `paths`, never written by hand.
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.d.ts';

export type { components, paths };
export type ApiClient = ReturnType<typeof createClient<paths>>;
export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** The 200 body of an operation, e.g. Ok<'/api/v1/bookings/diary', 'get'>. */
export type Ok<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: { 200: infer R } }
  ? Json<R>
  : never;
/** The JSON request body of an operation. */
export type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody?: infer B }
  ? Json<NonNullable<B>>
  : never;
/** The query parameters of an operation. */
export type Query<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  parameters: { query?: infer Q };
}
  ? NonNullable<Q>
  : never;

export interface ClientOptions {
  baseUrl?: string;
  /** The bearer token for each request (read at send time, so signing out takes effect at once). */
  token: () => string | null;
  /** Called once per 401 answer (the token expired or was revoked). */
  onUnauthenticated?: (message: string) => void;
  fetch?: typeof fetch;
}

export function createApiClient(options: ClientOptions): ApiClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl ?? '', fetch: options.fetch });
  const auth: Middleware = {
    onRequest({ request }) {
      const token = options.token();
      if (token) request.headers.set('authorization', `Bearer ${token}`);
      return request;
    },
    async onResponse({ response }) {
      if (response.status === 401 && options.onUnauthenticated) {
        const body = (await response
          .clone()
          .json()
          .catch(() => null)) as ErrorEnvelope | null;
        options.onUnauthenticated(body?.error?.message ?? 'Your session has ended');
      }
      return response;
    },
  };
  client.use(auth);
  return client;
}

/** The envelope's message of a failed call, or a generic line when the answer was not an envelope. */
export function errorMessage(error: unknown): string {
  const env = error as Partial<ErrorEnvelope> | null | undefined;
  if (env?.error?.message) return env.error.message;
  if (error instanceof Error) return `Network error: ${error.message}`;
  return 'The request failed';
}

export function errorCode(error: unknown): string | null {
  return (error as Partial<ErrorEnvelope> | null | undefined)?.error?.code ?? null;
}
