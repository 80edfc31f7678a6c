// Request and response schemas of the timetable's classes (POST/GET/PATCH /api/v1/classes).
import { Type, type Static } from 'typebox';
import { Instant, Nullable, NullableString, NullableUuid, StoreIdField, Uuid } from '../platform/http/schemas.ts';
import { NotBlankName } from '../bookings/catalogue-fields.schemas.ts';

export const WAITLIST_MODES = ['auto', 'offer'] as const;

export const ClassRecord = Type.Object({
  id: Uuid,
  name: Type.String(),
  category: NullableString,
  duration_min: Type.Integer(),
  capacity: Type.Integer({ description: 'Seats of every occurrence that sets none of its own' }),
  instructor_unit_id: NullableUuid,
  price_pence: Nullable(Type.Integer()),
  waitlist_mode: Type.Union(WAITLIST_MODES.map((m) => Type.Literal(m))),
  offer_minutes: Type.Integer(),
  promotion_cutoff_minutes: Type.Integer(),
  archived: Type.Boolean(),
  created_at: Instant,
  updated_at: Instant,
});
export type ClassRecord = Static<typeof ClassRecord>;

// Bounds (why these numbers): a class lasts at most a day; 1,000 seats is far above any studio; an
// offer lasts 1 minute to a day (the range); a cutoff up to a week ahead.
const Name = NotBlankName(200);
const fields = {
  category: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  duration_min: Type.Integer({ minimum: 1, maximum: 1440, description: 'Minutes (1 to 1440)' }),
  capacity: Type.Integer({ minimum: 1, maximum: 1000, description: 'Seats (1 to 1000)' }),
  instructor_unit_id: Type.Optional(Nullable(Uuid)),
  price_pence: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 10_000_000 }))),
  waitlist_mode: Type.Optional(
    Type.Union(
      WAITLIST_MODES.map((m) => Type.Literal(m)),
      {
        description:
          'auto (default): a freed seat books the first in line at once; offer: it is offered for offer_minutes',
      },
    ),
  ),
  offer_minutes: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1440,
      description: 'How long an offered seat waits for its acceptance (1 to 1440; default 60)',
    }),
  ),
  promotion_cutoff_minutes: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 10_080,
      description:
        'Within this many minutes of the start nobody is promoted, and a full class takes no waitlist (default 0)',
    }),
  ),
};

export const CreateClassBody = Type.Object(
  { store_id: Type.Optional(StoreIdField), name: Name, ...fields },
  { additionalProperties: false },
);
export type CreateClassBody = Static<typeof CreateClassBody>;

export const UpdateClassBody = Type.Object(
  {
    store_id: Type.Optional(StoreIdField),
    name: Type.Optional(Name),
    ...fields,
    duration_min: Type.Optional(fields.duration_min),
    capacity: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1000,
        description:
          'Applies to future occurrences without their own; refused (409) below the seats booked and offered in any of them',
      }),
    ),
    archived: Type.Optional(
      Type.Boolean({ description: 'true archives the class (never deletes it); false restores it' }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateClassBody = Static<typeof UpdateClassBody>;

export const ClassParams = Type.Object({ classId: Uuid }, { additionalProperties: false });
export const ClassListQuery = Type.Object(
  { store_id: Type.Optional(StoreIdField), include_archived: Type.Optional(Type.Boolean({ default: false })) },
  { additionalProperties: false },
);
export const StoreOnlyBody = Type.Object({ store_id: Type.Optional(StoreIdField) }, { additionalProperties: false });

export const ClassResponse = Type.Object({ class: ClassRecord });
export const ClassListResponse = Type.Object({ classes: Type.Array(ClassRecord) });
