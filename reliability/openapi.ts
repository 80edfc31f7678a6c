// The OpenAPI document as the proofs see it: every operation with its auth rule (read from the
// description the service writes for each route), its parameters, body and response schemas.
export interface AuthRule {
  /** merchant_or_customer: either token kind is let in, each with its own scope (availability). */
  kind: 'merchant' | 'customer' | 'merchant_or_customer' | 'admin' | 'public';
  /** The merchant's scope for merchant_or_customer. */
  scope: string | null;
  /** The customer's scope, for merchant_or_customer only. */
  customerScope?: string;
  entitlements: string[];
  permissions: string[];
}

export interface Operation {
  method: string; // upper case
  path: string; // as documented, with {params}
  operationId: string;
  auth: AuthRule;
  pathParams: Array<{ name: string; schema: any }>;
  queryParams: Array<{ name: string; schema: any; required: boolean }>;
  body: any | null;
  bodyRequired: boolean;
  responses: Record<string, any>; // status pattern -> schema
  /** The success answer is a Server-Sent Events stream: it stays open until the client leaves. */
  streaming: boolean;
}

// openapi.ts writes "Merchant token with scope S[ and entitlements E, F], or customer token with scope T."
const EITHER =
  /Merchant token with scope ([a-z]+:[a-z]+)(?: and entitlements ([a-z_, ]+?))?, or customer token with scope ([a-z]+:[a-z]+)\./;
const RULE =
  /(Merchant|Customer) token, scope ([a-z]+:[a-z]+)(?:; entitlements ([a-z_, ]+?))?(?:; permissions ([a-z_, ]+?))?\./;

const list = (s: string | undefined) =>
  s
    ? s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : [];

export function parseAuth(description: string | undefined, security: unknown): AuthRule {
  const text = description ?? '';
  if (/Operator surface/.test(text)) return { kind: 'admin', scope: null, entitlements: [], permissions: [] };
  const either = EITHER.exec(text);
  if (either)
    return {
      kind: 'merchant_or_customer',
      scope: either[1],
      customerScope: either[3],
      entitlements: list(either[2]),
      permissions: [],
    };
  const m = RULE.exec(text);
  // An empty requirement ([{}]: anyone, as the booking page's operations state it) is public too.
  const required = Array.isArray(security) ? security.some((s) => s && Object.keys(s).length > 0) : Boolean(security);
  if (!m) return { kind: required ? 'merchant' : 'public', scope: null, entitlements: [], permissions: [] };
  return {
    kind: m[1] === 'Merchant' ? 'merchant' : 'customer',
    scope: m[2],
    entitlements: list(m[3]),
    permissions: list(m[4]),
  };
}

export function operationsOf(doc: any): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries<any>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<any>(methods)) {
      if (!['get', 'post', 'patch', 'put', 'delete'].includes(method)) continue;
      const params: any[] = op.parameters ?? [];
      const responses: Record<string, any> = {};
      for (const [status, r] of Object.entries<any>(op.responses ?? {})) {
        responses[status] = r?.content?.['application/json']?.schema ?? null;
      }
      out.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? `${method} ${path}`,
        auth: parseAuth(op.description, op.security),
        pathParams: params
          .filter((p) => p.in === 'path')
          .map((p) => ({ name: p.name, schema: p.schema ?? { type: 'string' } })),
        queryParams: params
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema ?? { type: 'string' }, required: !!p.required })),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
        bodyRequired: !!op.requestBody?.required,
        responses,
        streaming: Boolean(op.responses?.['200']?.content?.['text/event-stream']),
      });
    }
  }
  return out;
}

export function findOperation(ops: Operation[], method: string, path: string): Operation | undefined {
  const norm = (p: string) => p.replace(/\/$/, '');
  return ops.find((o) => o.method === method.toUpperCase() && norm(o.path) === norm(path));
}

/** The concrete URL of an operation: path params substituted and the query appended. */
export function urlOf(op: Operation, pathValues: Record<string, string>, query?: Record<string, unknown>): string {
  let url = op.path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(pathValues[name] ?? ''));
  if (query) {
    const qs = Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .map(
        ([k, v]) =>
          `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'object' ? JSON.stringify(v) : String(v))}`,
      )
      .join('&');
    if (qs) url += `?${qs}`;
  }
  return url;
}
