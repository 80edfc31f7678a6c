// Schemas shared by every feature: identifiers, the error envelope, common fields.
import { Type, type TSchema } from 'typebox';

export const Uuid = Type.String({ format: 'uuid', description: 'uuid' });
export const Instant = Type.String({ format: 'date-time', description: 'ISO 8601 instant' });
export const NullableString = Type.Union([Type.String(), Type.Null()]);
export const NullableInstant = Type.Union([Instant, Type.Null()]);
export const NullableUuid = Type.Union([Uuid, Type.Null()]);

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

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
