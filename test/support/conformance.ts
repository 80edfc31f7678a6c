// The suite as a conformance check: every JSON answer that call() receives is validated against
// /openapi.json (the app's own document), with Ajv and the schema the document gives for that
// operation and status. A mismatch throws, which fails the test that made the call.
//
// Generic on purpose: no route is listed here. Answers on a path the document does not describe
// (/healthz, /readyz, /openapi.json, /docs, unknown paths) and answers of a documented path for a
// method it does not document (404/405) must still be the error envelope when they are errors;
// a success on an undocumented path is not checked (those routes are hidden from the document
// deliberately). Validators are compiled once per process, keyed by method, path template and
// status key.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { App } from '../../src/app.ts';
import { inline } from '../../reliability/response-check.ts';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;
// allErrors off: the first mismatch is enough to fail a test, and compiling is faster without it.
const ajv = new Ajv({ strict: false, allErrors: false, discriminator: true, validateFormats: true });
addFormats(ajv);

interface Route {
  template: string;
  pattern: RegExp;
  params: number;
  methods: Record<string, Record<string, any>>; // METHOD -> status key -> schema (or null)
}

interface Document {
  doc: any;
  routes: Route[];
}

const documents = new WeakMap<App, Document>();
const validators = new Map<string, ValidateFunction>();
/** Per `template METHOD`: each status's documented media types other than JSON. */
const otherTypes = new Map<string, Record<string, string[]>>();

function documentOf(app: App): Document {
  let entry = documents.get(app);
  if (!entry) {
    const doc = (app as any).swagger();
    const routes: Route[] = [];
    for (const [template, item] of Object.entries<any>(doc.paths ?? {})) {
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      const methods: Route['methods'] = {};
      for (const [method, op] of Object.entries<any>(item)) {
        if (!op?.responses) continue;
        methods[method.toUpperCase()] = Object.fromEntries(
          Object.entries<any>(op.responses).map(([status, r]) => [
            status,
            r?.content?.['application/json']?.schema ?? null,
          ]),
        );
        // The other media types a status documents (text/csv beside JSON, say), by method and status.
        otherTypes.set(
          `${template} ${method.toUpperCase()}`,
          Object.fromEntries(
            Object.entries<any>(op.responses).map(([status, r]) => [
              status,
              Object.keys(r?.content ?? {}).filter((t) => t !== 'application/json'),
            ]),
          ),
        );
      }
      routes.push({
        template,
        pattern: new RegExp(`^${source}$`),
        params: (template.match(/\{/g) ?? []).length,
        methods,
      });
    }
    // A static segment wins over a parameter (/customers/block before /customers/{customerId}), as in the router.
    routes.sort((a, b) => a.params - b.params);
    entry = { doc, routes };
    documents.set(app, entry);
  }
  return entry;
}

function validator(key: string, schema: any, doc: any): ValidateFunction {
  let fn = validators.get(key);
  if (!fn) {
    fn = ajv.compile(inline(schema, doc));
    validators.set(key, fn);
  }
  return fn;
}

function statusKey(responses: Record<string, any>, status: number): string | null {
  const s = String(status);
  for (const k of [s, `${s[0]}XX`, `${s[0]}xx`, 'default']) if (k in responses) return k;
  return null;
}

/**
 * null when the answer conforms; otherwise what is wrong. `body` is the parsed JSON (undefined when
 * the answer was not JSON).
 */
export function checkAnswer(
  app: App,
  method: string,
  url: string,
  status: number,
  contentType: string | undefined,
  body: unknown,
): string | null {
  const { doc, routes } = documentOf(app);
  const path = url.split('?')[0];
  const route = routes.find((r) => r.pattern.test(path));
  const responses = route?.methods[method.toUpperCase()];
  const isJson = !!contentType?.startsWith('application/json');
  if (!responses) {
    if (status < 400) return null; // hidden routes (health, the document, the docs page)
    if (!isJson)
      return `${method} ${path} answered ${status} with ${contentType ?? 'no content type'}, not the error envelope`;
    const envelope = validator('envelope', doc.components.schemas.ErrorEnvelope, doc);
    return envelope(body)
      ? null
      : `${method} ${path} answered ${status} outside the error envelope: ${ajv.errorsText(envelope.errors)}`;
  }
  const where = `${method.toUpperCase()} ${route!.template}`;
  const key = statusKey(responses, status);
  if (key === null)
    return `${where} answered ${status}, a status its document does not list (${Object.keys(responses).join(', ')})`;
  const schema = responses[key];
  if (!schema) return null; // documented without a JSON body
  if (
    !isJson &&
    otherTypes.get(`${route!.template} ${method.toUpperCase()}`)?.[key]?.some((t) => contentType?.startsWith(t))
  )
    return null;
  if (!isJson)
    return `${where} answered ${status} with ${contentType ?? 'no content type'}; the document says application/json`;
  const validate = validator(`${where} ${key}`, schema, doc);
  if (validate(body)) return null;
  return `${where} answered ${status} with a body that does not match its ${key} schema: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`;
}
