// Schemas shared by every feature: identifiers, the error envelope, common fields.
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';

const PRIMITIVES = new Set(['string', 'integer', 'number', 'boolean']);

/** The values of a `const`/`enum` primitive, or of a union of same-typed literals; else null. */
function enumOf(plain: Record<string, any>): { type: string; values: unknown[] } | null {
  if (typeof plain.type === 'string' && PRIMITIVES.has(plain.type)) {
    if (Array.isArray(plain.enum)) return { type: plain.type, values: plain.enum };
    if ('const' in plain) return { type: plain.type, values: [plain.const] };
  }
  if (
    plain.type === undefined &&
    Array.isArray(plain.enum) &&
    plain.enum.length &&
    plain.enum.every((v: unknown) => typeof v === 'string')
  ) {
    return { type: 'string', values: plain.enum };
  }
  const branches = plain.anyOf;
  if (
    Array.isArray(branches) &&
    branches.length &&
    branches.every((b: any) => 'const' in b && b.type === branches[0].type && PRIMITIVES.has(b.type))
  ) {
    return { type: branches[0].type, values: branches.map((b: any) => b.const) };
  }
  return null;
}

/**
 * `schema` or null. A primitive becomes `type: [T, "null"]`, which the response serialiser tells
 * apart with a typeof check; as an anyOf, every nullable field of every response would be validated
 * branch by branch (formats included) just to pick how to write it. An enum (a `String({ enum })`,
 * a literal, or a union of literals) keeps that form with `null` added to its values, so the
 * document admits null where the type does. Anything else is an anyOf.
 */
export const Nullable = <T extends TSchema>(schema: T): TUnsafe<Static<T> | null> => {
  const { '~kind': _kind, ...plain } = schema as Record<string, any>;
  const values = enumOf(plain);
  if (values) {
    const { anyOf: _anyOf, const: _const, ...rest } = plain;
    return Type.Unsafe<Static<T> | null>({
      ...rest,
      type: [values.type, 'null'],
      enum: [...values.values, null],
    } as TSchema);
  }
  if (typeof plain.type === 'string' && PRIMITIVES.has(plain.type)) {
    return Type.Unsafe<Static<T> | null>({ ...plain, type: [plain.type, 'null'] } as TSchema);
  }
  return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()]));
};

export const Uuid = Type.String({ format: 'uuid', description: 'uuid' });
export const Instant = Type.String({ format: 'date-time', description: 'ISO 8601 instant' });
export const NullableString = Nullable(Type.String());
export const NullableInstant = Nullable(Instant);
export const NullableUuid = Nullable(Uuid);

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      requestId: Type.String(),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'Every non-2xx answer' },
);

/** store_id in a body or query: identifies the store for authorisation; the token's store wins. */
export const StoreIdField = Uuid;
