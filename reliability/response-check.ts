// Validates answers against the OpenAPI document with Ajv: the response schema documented for
// the status (exact, then 2XX/4XX/5XX, then default), and request inputs against the request
// schemas (bodies strictly, parameters with the same coercion the service applies to strings).
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import querystring from 'node:querystring';
import type { Operation } from './openapi.ts';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

function make(coerce: boolean): Ajv {
  const ajv = new Ajv({
    strict: false,
    allErrors: false,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: false,
    validateFormats: true,
  });
  addFormats(ajv);
  return ajv;
}

/** Replaces '#/components/schemas/X' references with the schemas themselves. */
export function inline(schema: any, doc: any, depth = 0): any {
  if (depth > 20 || !schema || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((s) => inline(s, doc, depth + 1));
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#/components/schemas/')) {
    return inline(doc.components.schemas[schema.$ref.slice('#/components/schemas/'.length)], doc, depth + 1);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = k === '$id' ? undefined : inline(v, doc, depth + 1);
  return out;
}

export class Contract {
  private readonly strict = make(false);
  private readonly coercing = make(true);
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly doc: any;
  readonly envelope: ValidateFunction;

  constructor(doc: any) {
    this.doc = doc;
    this.envelope = this.strict.compile(
      inline(doc.components?.schemas?.ErrorEnvelope ?? { type: 'object', required: ['error'] }, doc),
    );
  }

  private compile(key: string, schema: any, coerce: boolean): ValidateFunction {
    let fn = this.cache.get(key);
    if (!fn) {
      fn = (coerce ? this.coercing : this.strict).compile(inline(schema, this.doc));
      this.cache.set(key, fn);
    }
    return fn;
  }

  /** The documented schema for an answer, or null when the status is not documented at all. */
  responseSchemaKey(op: Operation, status: number): string | null {
    const s = String(status);
    for (const k of [s, `${s[0]}XX`, `${s[0]}xx`, 'default']) if (k in op.responses) return k;
    return null;
  }

  /** null when the answer matches the document; otherwise why not. */
  checkResponse(op: Operation, status: number, contentType: string | undefined, body: string): string | null {
    const key = this.responseSchemaKey(op, status);
    if (key === null) return `status ${status} is not documented for ${op.method} ${op.path}`;
    const schema = op.responses[key];
    if (!schema) return null; // documented without a body schema
    if (!contentType?.startsWith('application/json')) return `content-type ${contentType} for status ${status}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return `status ${status} body is not JSON`;
    }
    const validate = this.compile(`res ${op.method} ${op.path} ${key}`, schema, false);
    if (!validate(parsed))
      return `status ${status} body does not match the ${key} schema: ${this.strict.errorsText(validate.errors)}`;
    return null;
  }

  /** Query parameters the document marks required although they have a default (a document inaccuracy). */
  static defaultedRequired(op: Operation): string[] {
    return op.queryParams.filter((q) => q.required && q.schema?.default !== undefined).map((q) => q.name);
  }

  /** Whether a request is valid by the document (true), given what was actually sent. */
  requestValid(
    op: Operation,
    req: { path: Record<string, string>; query: string; body: string | undefined; contentType: string | undefined },
  ): boolean {
    for (const param of op.pathParams) {
      const v = this.compile(
        `path ${op.path} ${param.name}`,
        { type: 'object', properties: { v: param.schema }, required: ['v'] },
        true,
      );
      if (!v({ v: req.path[param.name] })) return false;
    }
    if (op.queryParams.length || req.query) {
      const schema = {
        type: 'object',
        properties: Object.fromEntries(op.queryParams.map((q) => [q.name, q.schema])),
        // A parameter documented as required but with a default is filled in when omitted (Ajv
        // useDefaults), so omitting it is not an invalid input; defaultedRequired() lists them.
        required: op.queryParams.filter((q) => q.required && q.schema?.default === undefined).map((q) => q.name),
      };
      const v = this.compile(`query ${op.method} ${op.path}`, schema, true);
      if (!v({ ...querystring.parse(req.query) })) return false;
    }
    if (op.body) {
      if (req.body === undefined) return !op.bodyRequired;
      if (!req.contentType?.startsWith('application/json')) return false;
      let parsed: unknown;
      try {
        parsed = JSON.parse(req.body);
      } catch {
        return false;
      }
      const v = this.compile(`body ${op.method} ${op.path}`, op.body, false);
      if (!v(parsed)) return false;
    }
    return true;
  }
}
