// Customer holds at checkout: place, confirm into an appointment, release.
import { Type, type Static } from 'typebox';
import { Instant, Nullable, NullableInstant, Uuid } from '../../platform/http/schemas.ts';
import { Appointment } from '../appointments/appointments.schemas.ts';

export const HoldBody = Type.Object(
  {
    store_id: Uuid,
    service_id: Uuid,
    variant_id: Type.Optional(Nullable(Uuid)),
    addon_ids: Type.Optional(Type.Array(Uuid, { maxItems: 50, uniqueItems: true })),
    unit_id: Type.Optional(Nullable(Uuid)),
    starts_at: Instant,
    party_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  },
  { additionalProperties: false },
);
export type HoldBody = Static<typeof HoldBody>;

export const Hold = Type.Object({
  id: Uuid,
  unit_id: Uuid,
  starts_at: Instant,
  ends_at: Type.String({ format: 'date-time', description: 'the end the customer is told' }),
  expires_at: NullableInstant,
  price_pence: Type.Integer({
    description:
      'what booking this hold costs now: the one price rule (per head for a per_person service) on the service or variant and the add-ons',
  }),
  deposit_pence: Type.Integer({ description: 'the deposit confirming it would ask (0: none)' }),
  currency: Type.String(),
});
export const HoldResponse = Type.Object({ hold: Hold });
export type HoldResponse = Static<typeof HoldResponse>;

export const HoldParams = Type.Object({ holdId: Uuid }, { additionalProperties: false });

export const ConfirmBody = Type.Object(
  { guest_note: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))) },
  { additionalProperties: false },
);
export type ConfirmBody = Static<typeof ConfirmBody>;

export const ConfirmResponse = Type.Object({ appointment: Appointment, reused: Type.Boolean() });
export type ConfirmResponse = Static<typeof ConfirmResponse>;

export const ReleaseResponse = Type.Object({
  hold_id: Uuid,
  released: Type.Boolean({ description: 'true when this call ended the hold' }),
  noop: Type.Boolean({ description: 'true when it had already ended (released, lapsed or confirmed)' }),
});
export type ReleaseResponse = Static<typeof ReleaseResponse>;
