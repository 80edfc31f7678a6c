// A JSON HTTP client for real server processes: every call is bounded in time and a transport
// failure (connection refused or reset, timeout) is a result, not an exception.
export interface HttpResult {
  status: number; // 0 when no HTTP answer arrived
  body: any;
  headers: Headers | null;
  error: string | null;
  ms: number;
}

export interface HttpOptions {
  token?: string;
  body?: unknown;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export async function http(baseUrl: string, method: string, path: string, o: HttpOptions = {}): Promise<HttpResult> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.idempotencyKey) headers['idempotency-key'] = o.idempotencyKey;
  if (o.body !== undefined) headers['content-type'] ??= 'application/json';
  const started = Date.now();
  try {
    const res = await fetch(baseUrl + path, {
      method,
      headers,
      body: o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body),
      signal: AbortSignal.timeout(o.timeoutMs ?? 30_000),
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body, headers: res.headers, error: null, ms: Date.now() - started };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return {
      status: 0,
      body: null,
      headers: null,
      error: e.cause?.code ?? e.name ?? String(err),
      ms: Date.now() - started,
    };
  }
}

export const errorCodeOf = (r: { body: any }): string | null =>
  r.body && typeof r.body === 'object' && r.body.error && typeof r.body.error.code === 'string'
    ? r.body.error.code
    : null;

/** True when the answer is the service's error envelope exactly: { error: { code, message, requestId } }. */
export function isEnvelope(body: any): boolean {
  const e = body?.error;
  return (
    !!e &&
    typeof e.code === 'string' &&
    typeof e.message === 'string' &&
    typeof e.requestId === 'string' &&
    Object.keys(body).length === 1
  );
}

/** Runs tasks with at most `limit` in flight. */
export async function pool<T>(items: T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  });
  await Promise.all(workers);
}
