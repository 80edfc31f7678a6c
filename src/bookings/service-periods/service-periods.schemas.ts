// Request and response schemas of the service-period endpoints (spec: Service period).
import { Type, type Static } from 'typebox';
import { StoreIdField, Uuid } from '../../platform/http/schemas.ts';
import { archivableListQuery, NotBlankName, Sort } from '../catalogue-fields.schemas.ts';
import { Week } from './week.ts';

export const ServicePeriod = Type.Object({
  id: Uuid,
  store_id: Uuid,
  name: Type.String(),
  sort: Type.Integer(),
  week: Week,
  last_seating_offset_min: Type.Integer(),
  is_active: Type.Boolean(),
});
export type ServicePeriod = Static<typeof ServicePeriod>;

// Bounds: the database allows 120 characters and an offset of at most a day.
const Name = NotBlankName(120);
const OFFSET_NOTE =
  'Minutes before close that the last table is seated (0 to 1440); overrides the store policy value for this period';
const LastSeatingOffset = Type.Integer({ minimum: 0, maximum: 1440, description: OFFSET_NOTE });

export const ListQuery = archivableListQuery('Include disabled (is_active false) periods');

export const CreateBody = Type.Object(
  {
    store_id: StoreIdField,
    client_token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Idempotent create: a retry with the same token returns the period the first call created, unchanged',
      }),
    ),
    name: Name,
    sort: Type.Optional(Sort),
    week: Type.Optional(Week),
    last_seating_offset_min: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1440,
        description: `${OFFSET_NOTE}. Defaults to the store's last_seating_offset_min, or 0`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateBody = Static<typeof CreateBody>;

export const UpdateBody = Type.Object(
  {
    store_id: StoreIdField,
    name: Type.Optional(Name),
    sort: Type.Optional(Sort),
    week: Type.Optional(Week),
    last_seating_offset_min: Type.Optional(LastSeatingOffset),
    is_active: Type.Optional(
      Type.Boolean({ description: 'false disables the period without deleting it; true re-enables it' }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateBody = Static<typeof UpdateBody>;

export const PeriodParams = Type.Object({ periodId: Uuid }, { additionalProperties: false });

export const DeleteQuery = Type.Object({ store_id: StoreIdField }, { additionalProperties: false });

export const PeriodResponse = Type.Object({ period: ServicePeriod });
export const PeriodListResponse = Type.Object({ periods: Type.Array(ServicePeriod) });
export const DeleteResponse = Type.Object({
  period_id: Type.String(),
  removed: Type.Boolean({ description: 'false when nothing was there to remove' }),
});
