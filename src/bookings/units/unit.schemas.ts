// The Unit record as the spec shows it (diary, units endpoints, operator surface).
import { Type, type Static } from 'typebox';
import { NullableString, Uuid } from '../../platform/http/schemas.ts';

export const Unit = Type.Object({
  id: Uuid,
  display_name: Type.String(),
  kind: Type.String(),
  unit_type: NullableString,
  user_id: NullableString,
  colour: NullableString,
  photo_url: NullableString,
  sort: Type.Integer(),
  bookable: Type.Boolean(),
  online_bookable: Type.Boolean(),
  is_active: Type.Boolean(),
});
export type Unit = Static<typeof Unit>;

export const UNIT_COLUMNS =
  'id, display_name, kind, unit_type, user_id, colour, photo_url, sort, bookable, online_bookable, is_active';

/** Allowed unit kinds (the spec does not list them; see docs/decisions/diary.md). */
export const UNIT_KINDS = ['staff', 'chair', 'room', 'table', 'resource'] as const;

/** Writable unit fields, shared by the units endpoints and the operator surface. */
export const UnitFields = {
  display_name: Type.String({ minLength: 1, maxLength: 120 }),
  kind: Type.Union(UNIT_KINDS.map((k) => Type.Literal(k))),
  unit_type: Type.Optional(Type.Union([Type.String({ maxLength: 60 }), Type.Null()])),
  user_id: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  colour: Type.Optional(Type.Union([Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' }), Type.Null()])),
  photo_url: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: 2000 }), Type.Null()])),
  sort: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
  bookable: Type.Optional(Type.Boolean()),
  online_bookable: Type.Optional(Type.Boolean()),
  is_active: Type.Optional(Type.Boolean()),
};

// Requests and responses of the units endpoints.
export const ListUnitsQuery = Type.Object(
  {
    store_id: Uuid,
    include_inactive: Type.Optional(
      Type.Boolean({ default: false, description: 'default false: deactivated units are excluded' }),
    ),
  },
  { additionalProperties: false },
);
export type ListUnitsQuery = Static<typeof ListUnitsQuery>;

export const CreateUnitBody = Type.Object({ store_id: Uuid, ...UnitFields }, { additionalProperties: false });
export type CreateUnitBody = Static<typeof CreateUnitBody>;

export const UpdateUnitBody = Type.Object(
  { store_id: Uuid, ...Type.Partial(Type.Object(UnitFields)).properties },
  { additionalProperties: false },
);
export type UpdateUnitBody = Static<typeof UpdateUnitBody>;

export const UnitParams = Type.Object({ unitId: Uuid }, { additionalProperties: false });

export const UnitResponse = Type.Object({ unit: Unit });
export const UnitsResponse = Type.Object({ units: Type.Array(Unit) });
