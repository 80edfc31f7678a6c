// A small wrapper over app.inject for JSON calls with a bearer token. Every answer is checked
// against the app's own OpenAPI document (conformance.ts): a mismatch fails the calling test.
import type { App } from '../../src/app.ts';
import { checkAnswer } from './conformance.ts';

export interface CallOptions {
  token?: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  idempotencyKey?: string;
}

export interface CallResult<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
}

export async function call<T = any>(
  app: App,
  method: string,
  url: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  const query = options.query
    ? Object.fromEntries(
        Object.entries(options.query)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, String(v)]),
      )
    : undefined;
  const res = await app.inject({
    method: method as any,
    url,
    headers,
    query,
    ...(options.body !== undefined ? { payload: options.body as any } : {}),
  });
  let body: any = res.body;
  let json: unknown;
  try {
    body = json = res.body ? JSON.parse(res.body) : null;
  } catch {
    /* not JSON: keep text */
  }
  const contentType = res.headers['content-type'] as string | undefined;
  const mismatch = checkAnswer(
    app,
    method,
    url,
    res.statusCode,
    contentType,
    contentType?.startsWith('application/json') ? json : undefined,
  );
  if (mismatch)
    throw new Error(`answer does not conform to /openapi.json: ${mismatch}\nbody: ${res.body.slice(0, 1000)}`);
  return { status: res.statusCode, body, headers: res.headers as any };
}

/** Asserts the error envelope and returns the code. */
export function errorCode(result: CallResult): string {
  const e = result.body?.error;
  if (!e || typeof e.code !== 'string' || typeof e.message !== 'string' || typeof e.requestId !== 'string') {
    throw new Error(`not an error envelope (status ${result.status}): ${JSON.stringify(result.body)}`);
  }
  return e.code;
}
