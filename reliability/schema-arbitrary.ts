// fast-check arbitraries from the JSON Schemas in the OpenAPI document: valid values (with the
// ids of real records where a field names one, so requests get past lookups), and malformed
// variants of them (wrong types, missing fields, huge strings, unicode, injection, traversal,
// negative and huge numbers, extra fields).
import fc from 'fast-check';

export type IdsFor = (field: string) => string[];

const MAX_STRING = 40;

export function valueArb(schema: any, ids: IdsFor, field = ''): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object' || Object.keys(schema).length === 0) return fc.jsonValue({ maxDepth: 2 });
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) {
    // Prefer the non-null branch: null is covered, but mostly the interesting values are not null.
    return fc.oneof(
      ...alternatives.map((s: any) => ({ arbitrary: valueArb(s, ids, field), weight: s?.type === 'null' ? 1 : 4 })),
    );
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length)
    return valueArb(Object.assign({}, ...schema.allOf), ids, field);
  const type = Array.isArray(schema.type)
    ? schema.type
    : schema.type
      ? [schema.type]
      : schema.properties
        ? ['object']
        : null;
  if (!type) return fc.jsonValue({ maxDepth: 2 });
  if (type.length > 1) return fc.oneof(...type.map((t: string) => valueArb({ ...schema, type: t }, ids, field)));
  switch (type[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1000);
      const max =
        schema.maximum ??
        (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : Math.max(min, 0) + 1000);
      return fc.oneof(fc.integer({ min, max: Math.min(max, min + 60) }), fc.integer({ min, max }));
    }
    case 'number': {
      const min = schema.minimum ?? -1000;
      const max = schema.maximum ?? 1000;
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'string':
      return stringArb(schema, ids, field);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? minLength + 3, minLength + 3);
      const item = valueArb(schema.items ?? {}, ids, field);
      return schema.uniqueItems
        ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength, maxLength });
    }
    case 'object': {
      const props: Record<string, any> = schema.properties ?? {};
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, s] of Object.entries(props)) record[k] = valueArb(s, ids, k);
      return fc.record(record, {
        requiredKeys: (schema.required ?? []).filter((k: string) => k in props),
      }) as fc.Arbitrary<unknown>;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringArb(schema: any, ids: IdsFor, field: string): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? MAX_STRING, MAX_STRING));
  switch (schema.format) {
    case 'uuid': {
      const pool = ids(field);
      return pool.length
        ? fc.oneof({ arbitrary: fc.constantFrom(...pool), weight: 5 }, { arbitrary: fc.uuid(), weight: 1 })
        : fc.uuid();
    }
    case 'date-time':
      return fc
        .date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2032-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => new Date(Math.round(d.getTime() / 900_000) * 900_000).toISOString());
    case 'date':
      return fc
        .date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2032-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress().filter((e) => e.length <= (schema.maxLength ?? 254));
    case 'uri':
      // fc.webUrl() is far too slow for tens of thousands of requests; these cover the shapes.
      return fc.oneof(
        fc.nat().map((n) => `https://img.example.com/p/${n}.jpg`),
        fc.constantFrom(
          'http://example.com',
          'https://example.com/a?b=c#d',
          'ftp://files.example.com/x',
          'urn:isbn:0451450523',
        ),
      );
  }
  if (typeof schema.pattern === 'string') {
    const re = new RegExp(schema.pattern, 'u');
    return fc
      .stringMatching(re)
      .filter((s) => [...s].length >= minLength && [...s].length <= (schema.maxLength ?? Infinity));
  }
  // Field names that the API treats as dates or phones get plausible values now and then.
  if (/date$/.test(field))
    return fc.oneof(
      fc.string({ minLength, maxLength }),
      fc
        .date({ min: new Date('2026-01-01'), max: new Date('2027-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
    );
  if (/phone/.test(field))
    return fc.oneof(
      fc.string({ minLength, maxLength }),
      fc.integer({ min: 0, max: 99_999_999 }).map((n) => `+4477${String(n).padStart(8, '0')}`),
    );
  return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: 'grapheme' }));
}

export const NASTY_STRINGS = [
  "' OR '1'='1",
  "'; DROP TABLE appointments; --",
  '" OR ""="',
  '1; SELECT pg_sleep(10)--',
  '{"$gt":""}',
  '{"__proto__":{"admin":true}}',
  '__proto__',
  'constructor',
  '../../../../etc/passwd',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '\u0000',
  'a\u0000b',
  '\u202eevil',
  '😀'.repeat(60),
  'Z̷̢̛a̵̡͝l̶̨̛g̷̨̛o̵̧͝',
  '<script>alert(1)</script>',
  '${jndi:ldap://x/a}',
  '%00',
  ' ',
  '',
  'null',
  'NaN',
  '-1',
  '1e309',
  '\\',
  '\ud800',
];

export const WRONG_TYPES: unknown[] = [
  0,
  -1,
  1.5,
  true,
  false,
  null,
  [],
  {},
  'text',
  [1, 2],
  { a: 1 },
  9007199254740993,
  -2147483649,
  1e308,
  -1e308,
];
export const HUGE_NUMBERS: unknown[] = [
  -1, -2147483648, 2147483648, 9007199254740991, -9007199254740991, 1e21, 1e308, 0.5, -0.0,
];
export const HUGE_LENGTHS = [1_000, 5_000, 70_000, 300_000];

export type Mutation =
  | 'drop-required'
  | 'wrong-type'
  | 'huge-string'
  | 'nasty-string'
  | 'numbers'
  | 'extra-field'
  | 'proto-key'
  | 'whole-body';

export const MUTATIONS: Mutation[] = [
  'drop-required',
  'wrong-type',
  'huge-string',
  'nasty-string',
  'numbers',
  'extra-field',
  'proto-key',
  'whole-body',
];

/** Applies one mutation to a copy of an object value, at a field chosen by `pick`. */
export function mutate(value: unknown, schema: any, mutation: Mutation, pick: number): unknown {
  if (mutation === 'whole-body' || !value || typeof value !== 'object' || Array.isArray(value))
    return WRONG_TYPES[pick % WRONG_TYPES.length];
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const keys = Object.keys(schema?.properties ?? copy);
  const key = keys.length ? keys[pick % keys.length] : 'field';
  switch (mutation) {
    case 'drop-required': {
      const required: string[] = schema?.required ?? [];
      if (required.length) delete copy[required[pick % required.length]];
      else copy[key] = WRONG_TYPES[pick % WRONG_TYPES.length];
      return copy;
    }
    case 'wrong-type':
      copy[key] = WRONG_TYPES[pick % WRONG_TYPES.length];
      return copy;
    case 'huge-string':
      copy[key] = 'x'.repeat(HUGE_LENGTHS[pick % HUGE_LENGTHS.length]);
      return copy;
    case 'nasty-string':
      copy[key] = NASTY_STRINGS[pick % NASTY_STRINGS.length];
      return copy;
    case 'numbers':
      copy[key] = HUGE_NUMBERS[pick % HUGE_NUMBERS.length];
      return copy;
    case 'extra-field':
      copy[`extra_${pick % 7}`] = pick % 2 ? 'x' : { nested: true };
      return copy;
    case 'proto-key':
      return JSON.parse(`{"__proto__": {"polluted": true}, ${JSON.stringify(copy).slice(1)}`.replace(/, }$/, '}'));
  }
}
