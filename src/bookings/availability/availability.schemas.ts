// The availability search: where a service can start, per store-local day.
import { Type, type Static } from 'typebox';
import { Instant, Uuid } from '../../platform/http/schemas.ts';

/** Longest range one search may cover, in days (the peers stop at about a month). */
export const MAX_AVAILABILITY_DAYS = 90;

const LocalDate = Type.String({ format: 'date', description: 'store-local calendar date, YYYY-MM-DD' });

export const AvailabilityQuery = Type.Object(
  {
    store_id: Type.Optional(
      Type.Union([Uuid, Type.Null()], { description: "required with a customer token; a merchant token's store wins" }),
    ),
    service_id: Uuid,
    variant_id: Type.Optional(Type.Union([Uuid, Type.Null()])),
    addon_ids: Type.Optional(Type.String({ maxLength: 2000, description: 'comma-separated add-on ids' })),
    unit_id: Type.Optional(Type.Union([Uuid, Type.Null()], { description: 'only this unit; omit for any' })),
    party_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 1 })),
    from_date: Type.Optional(LocalDate),
    to_date: Type.Optional(LocalDate),
  },
  { additionalProperties: false },
);
export type AvailabilityQuery = Static<typeof AvailabilityQuery>;

export const Slot = Type.Object({
  starts_at: Instant,
  ends_at: Type.String({
    format: 'date-time',
    description: 'the end the customer is told (buffers and processing time are not in it)',
  }),
  local_time: Type.String({ description: "HH:MM on the store's wall clock" }),
  unit_ids: Type.Array(Uuid, { description: 'units that can take it, in diary order' }),
});

export const AvailabilityResponse = Type.Object({
  store_id: Uuid,
  timezone: Type.String(),
  service_id: Uuid,
  duration_min: Type.Integer(),
  days: Type.Array(Type.Object({ date: LocalDate, slots: Type.Array(Slot) })),
});
export type AvailabilityResponse = Static<typeof AvailabilityResponse>;
