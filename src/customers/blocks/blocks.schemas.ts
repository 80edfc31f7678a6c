// Block, mute, note and archive: the Block record and the four inputs, named like its fields.
import { Type, type Static } from 'typebox';
import { NullableInstant, NullableString, Uuid } from '../../platform/http/schemas.ts';

export { CHANNELS, type Channel } from '../../notifications/channels/channels.ts';
const ChannelSchema = Type.Union([
  Type.Literal('email'),
  Type.Literal('sms'),
  Type.Literal('drops_chat'),
  Type.Literal('app_message'),
]);

export const BLOCK_REASON_MAX = 500;
/** Bulk size cap: one statement, one response; larger sets are sent in batches. */
export const BULK_MAX = 500;

export const BlockRecord = Type.Object({
  customer_id: Uuid,
  blocked: Type.Boolean(),
  blocked_at: NullableInstant,
  blocked_channels: Type.Array(ChannelSchema),
  block_reason: NullableString,
  archived: Type.Boolean(),
  archived_at: NullableInstant,
});
export type BlockRecord = Static<typeof BlockRecord>;

const inputs = {
  blocked: Type.Optional(Type.Boolean()),
  // Replaces the list wholesale; duplicates are folded. [] unmutes every channel.
  blocked_channels: Type.Optional(Type.Array(ChannelSchema, { maxItems: 16 })),
  // "" clears the note.
  block_reason: Type.Optional(Type.String({ maxLength: BLOCK_REASON_MAX })),
  archived: Type.Optional(Type.Boolean()),
};

export const BlockParams = Type.Object({ customerId: Uuid }, { additionalProperties: false });

export const BlockBody = Type.Object({ store_id: Uuid, ...inputs }, { additionalProperties: false });
export type BlockBody = Static<typeof BlockBody>;

export const BulkBlockBody = Type.Object(
  { store_id: Uuid, customer_ids: Type.Array(Uuid, { minItems: 1, maxItems: BULK_MAX }), ...inputs },
  { additionalProperties: false },
);
export type BulkBlockBody = Static<typeof BulkBlockBody>;

export const BlockResponse = Type.Object({ customer: BlockRecord });
export type BlockResponse = Static<typeof BlockResponse>;

export const BulkBlockResponse = Type.Object({ updated: Type.Integer(), customers: Type.Array(BlockRecord) });
export type BulkBlockResponse = Static<typeof BulkBlockResponse>;
