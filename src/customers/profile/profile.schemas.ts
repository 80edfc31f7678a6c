// PATCH /api/v1/customers/{customerId}: the edit body and the edit record, as the spec shows them.
import { Type, type Static } from 'typebox';
import { NullableInstant, NullableString, Uuid } from '../../platform/http/schemas.ts';
import { customerContact } from '../customer-contact.schemas.ts';

export const EDITABLE_FIELDS = ['name', 'phone', 'email', 'merchant_note'] as const;
export type EditableField = (typeof EDITABLE_FIELDS)[number];

export const CustomerParams = Type.Object({ customerId: Uuid }, { additionalProperties: false });

/** store_id may travel in the query instead of the body; the token's store wins either way. */
export const EditQuery = Type.Object({ store_id: Type.Optional(Uuid) }, { additionalProperties: false });

// Lengths are checked after trimming in the service (a name is at most 80 characters once trimmed);
// the bounds here only keep absurd inputs out.
export const EditBody = Type.Object(
  {
    store_id: Type.Optional(Uuid),
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    phone: Type.Optional(Type.String({ maxLength: 100 })),
    email: Type.Optional(Type.String({ maxLength: 1000 })),
    merchant_note: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  { additionalProperties: false },
);
export type EditBody = Static<typeof EditBody>;

export const EditRecord = Type.Object({
  ...customerContact,
  merchant_note: NullableString,
  merchant_note_updated_at: NullableInstant,
});
export type EditRecord = Static<typeof EditRecord>;

export const EditResponse = Type.Object({
  customer: EditRecord,
  changed_fields: Type.Array(
    Type.Union([Type.Literal('name'), Type.Literal('phone'), Type.Literal('email'), Type.Literal('merchant_note')]),
  ),
});
export type EditResponse = Static<typeof EditResponse>;
