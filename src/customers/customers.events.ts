// The data schema of each customer event; buildApp hands them to the OpenAPI `webhooks` map.
import { Type } from 'typebox';
import { Instant, NullableInstant, NullableString, Uuid } from '../platform/http/schemas.ts';
import { ChangedFields, type EventData } from '../events/event-payloads.ts';
import { BlockRecord } from './blocks/blocks.schemas.ts';

// Block records without the merchant's private note; id repeats customer_id so data.id is always the customer.
const { block_reason: _note, ...blockShared } = BlockRecord.properties;
const customerBlock = Type.Object(
  { id: Uuid, ...blockShared, changed_fields: ChangedFields },
  { description: "The customer's block record at this store after the change (the block note is never included)" },
);

export const CUSTOMER_EVENT_DATA: EventData = {
  'customer.updated': Type.Object(
    {
      id: Uuid,
      name: NullableString,
      phone: NullableString,
      email: NullableString,
      merchant_note_updated_at: Type.Optional(NullableInstant),
      erased_at: Type.Optional(Instant),
      blocked: Type.Optional(Type.Boolean()),
      blocked_channels: Type.Optional(Type.Array(Type.String())),
      changed_fields: ChangedFields,
      source: Type.Optional(
        Type.Literal('import', { description: 'Present when an import made the change (src/imports/)' }),
      ),
    },
    {
      description:
        'The customer after an edit (identity fields; merchant_note is named in changed_fields but its text is never included), ' +
        'after an operator erasure (identity null, erased_at set), or the block record after a change of muted channels or block note',
    },
  ),
  'customer.created': Type.Object(
    {
      id: Uuid,
      name: NullableString,
      phone: NullableString,
      email: NullableString,
      source: Type.Literal('import', { description: 'How the customer arrived (today only an import emits this)' }),
    },
    { description: 'A customer new to the platform, created by an import (src/imports/); no message is sent' },
  ),
  'customer.blocked': customerBlock,
  'customer.unblocked': customerBlock,
  'customer.archived': customerBlock,
  'customer.restored': customerBlock,
};
