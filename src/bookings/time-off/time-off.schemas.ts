// The time-off entry as the diary shows it, and the requests of the time-off endpoints.
import { Type, type Static } from 'typebox';
import { Instant, NullableString, Uuid } from '../../platform/http/schemas.ts';

export const TIME_OFF_KINDS = ['time_off', 'block'] as const;
export const TimeOffKind = Type.Union(
  TIME_OFF_KINDS.map((k) => Type.Literal(k)),
  {
    description: "'time_off' for an explicit time-off entry, 'block' for a manual lunch or errand block",
  },
);

/** The spec's Time-off entry (diary). */
export const TimeOffEntry = Type.Object({
  id: Uuid,
  starts_at: Instant,
  ends_at: Instant,
  kind: Type.String(),
  reason: NullableString,
});
export type TimeOffEntry = Static<typeof TimeOffEntry>;

/** The entry with the unit it belongs to, as the create endpoint answers. */
export const TimeOffRecord = Type.Object({ ...TimeOffEntry.properties, unit_id: Uuid });
export type TimeOffRecord = Static<typeof TimeOffRecord>;

export const CreateTimeOffBody = Type.Object(
  {
    store_id: Uuid,
    unit_id: Uuid,
    starts_at: Instant,
    ends_at: Instant,
    kind: TimeOffKind,
    reason: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
    override: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'true records the entry even over live appointments (they stay booked)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateTimeOffBody = Static<typeof CreateTimeOffBody>;

export const CreateTimeOffResponse = Type.Object({ time_off: TimeOffRecord });

export const TimeOffParams = Type.Object({ timeOffId: Uuid }, { additionalProperties: false });
export const DeleteTimeOffQuery = Type.Object({ store_id: Uuid }, { additionalProperties: false });
export const DeleteTimeOffResponse = Type.Object({
  time_off_id: Type.String(),
  removed: Type.Boolean({ description: 'false when nothing was there to remove' }),
});
