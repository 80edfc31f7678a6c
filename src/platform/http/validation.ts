// Two Ajv instances: bodies are validated strictly (no coercion: "5" is not a number, unknown
// fields are refused); querystrings, params and headers are strings on the wire and are coerced.
import { Ajv, type Options } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { lazyValidator } from './lazy-compile.ts';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

const base: Options = {
  allErrors: false,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
  // TypeBox adds its own keywords (~kind and friends); Ajv only needs to ignore them.
  // Unions tagged by a field (`discriminator: { propertyName }` over oneOf) report errors from the
  // branch the tag selects, not from every branch.
  discriminator: true,
};

function make(options: Options): Ajv {
  const ajv = new Ajv({ ...base, ...options });
  addFormats(ajv);
  return ajv;
}

const strict = make({ coerceTypes: false });
const coercing = make({ coerceTypes: 'array' });

/** Each part's validator is compiled when its route first answers (lazy-compile.ts). */
export const validatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strict : coercing;
  return lazyValidator(() => ajv.compile(schema as object)) as any;
};

/**
 * Named schemas (with a `$id`) that routes reference as `{ $ref: '<$id>#' }`: added to the app (the
 * OpenAPI document lists them under components.schemas; the serialiser resolves them) and to both
 * validators. The validators are shared by every app of the process, so each name is added once.
 */
export function addSharedSchemas(app: FastifyInstance, ...schemas: Array<{ $id: string }>) {
  for (const schema of schemas) {
    if (!app.getSchema(schema.$id)) app.addSchema(schema);
    for (const ajv of [strict, coercing]) if (!ajv.getSchema(schema.$id)) ajv.addSchema(schema as object);
  }
}
