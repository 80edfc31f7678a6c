// Schemas shared by every feature: identifiers, the error envelope, common fields.
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';

const PRIMITIVES = new Set(['string', 'integer', 'number', 'boolean']);

/**
 * `schema` or null. A primitive becomes `type: [T, "null"]`, which the response serialiser tells
 * apart with a typeof check; as an anyOf, every nullable field of every response would be validated
 * branch by branch (formats included) just to pick how to write it. Anything else is an anyOf.
 */
export const Nullable = <T extends TSchema>(schema: T): TUnsafe<Static<T> | null> => {
  const { '~kind': _kind, ...plain } = schema as Record<string, unknown>;
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
