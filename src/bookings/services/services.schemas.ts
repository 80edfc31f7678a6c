// Request and response schemas of the services endpoints (spec: Service). Variants and add-ons are
// part of the service record and are written through nested arrays on create and update.
import { Type, type Static } from 'typebox';
import { Nullable, StoreIdField, Uuid } from '../../platform/http/schemas.ts';
import { archivableListQuery, NotBlankName, Sort } from '../catalogue-fields.schemas.ts';

export const PRICE_TYPES = ['fixed', 'from', 'per_person'] as const;
export const LOCATION_TYPES = ['on_premises', 'online', 'customer_site'] as const;

export const Variant = Type.Object({
  id: Uuid,
  name: Type.String(),
  duration_min: Nullable(Type.Integer()),
  price_pence: Nullable(Type.Integer()),
  sort: Type.Integer(),
  is_active: Type.Boolean(),
});

export const Addon = Type.Object({
  id: Uuid,
  name: Type.String(),
  extra_min: Type.Integer(),
  extra_pence: Type.Integer(),
  sort: Type.Integer(),
  is_active: Type.Boolean(),
});

export const Service = Type.Object({
  id: Uuid,
  store_id: Uuid,
  category: Nullable(Type.String()),
  name: Type.String(),
  description: Nullable(Type.String()),
  images: Type.Array(Type.String()),
  duration_min: Type.Integer(),
  price_pence: Type.Integer(),
  currency: Type.String(),
  price_type: Type.Union(PRICE_TYPES.map((v) => Type.Literal(v))),
  party_min: Type.Integer(),
  party_max: Type.Integer(),
  buffer_before_min: Type.Integer(),
  buffer_after_min: Type.Integer(),
  processing_min: Type.Integer(),
  location_type: Type.Union(LOCATION_TYPES.map((v) => Type.Literal(v))),
  rebook_interval_days: Nullable(Type.Integer()),
  online_visible: Type.Boolean(),
  sort: Type.Integer(),
  is_active: Type.Boolean(),
  variants: Type.Array(Variant, {
    description: 'Every variant, archived ones (is_active false) included; ordered by sort, then name',
  }),
  addons: Type.Array(Addon, {
    description: 'Every add-on, archived ones (is_active false) included; ordered by sort, then name',
  }),
});
export type Service = Static<typeof Service>;

// Bounds (why these numbers): a day is the longest single booking a unit takes; £100,000 is far above
// any bookable price while staying well inside a 32-bit integer column.
const Minutes = (description: string) =>
  Type.Integer({ minimum: 0, maximum: 1440, description: `${description} (0 to 1440)` });
const Pence = (description: string) =>
  Type.Integer({ minimum: 0, maximum: 10_000_000, description: `${description} (0 to 10,000,000)` });
const ItemName = NotBlankName(200);
const Party = (description: string) => Type.Integer({ minimum: 1, maximum: 1000, description });

const variantFields = {
  name: ItemName,
  duration_min: Type.Optional(Nullable(Minutes('Minutes; null uses the service duration_min'))),
  price_pence: Type.Optional(Nullable(Pence('Price; null uses the service price_pence'))),
  sort: Type.Optional(Sort),
  is_active: Type.Optional(Type.Boolean({ description: 'false archives the variant; true restores it' })),
};
const addonFields = {
  name: ItemName,
  extra_min: Type.Optional(Minutes('Minutes added to the booking')),
  extra_pence: Type.Optional(Pence('Amount added to the price')),
  sort: Type.Optional(Sort),
  is_active: Type.Optional(Type.Boolean({ description: 'false archives the add-on; true restores it' })),
};

export const NewVariant = Type.Object(variantFields, { additionalProperties: false });
export const NewAddon = Type.Object(addonFields, { additionalProperties: false });
export type NewVariant = Static<typeof NewVariant>;
export type NewAddon = Static<typeof NewAddon>;

// On update an item with an id changes that variant/add-on (only the fields sent); an item without
// an id creates one (name then required). Items not mentioned are left as they are.
export const VariantChange = Type.Object(
  { id: Type.Optional(Uuid), ...variantFields, name: Type.Optional(ItemName) },
  { additionalProperties: false },
);
export const AddonChange = Type.Object(
  { id: Type.Optional(Uuid), ...addonFields, name: Type.Optional(ItemName) },
  { additionalProperties: false },
);
export type VariantChange = Static<typeof VariantChange>;
export type AddonChange = Static<typeof AddonChange>;

const MAX_ITEMS = 50;

/** Every writable service field; shared by create (name and duration_min required there) and update. */
const serviceFields = {
  category: Type.Optional(Nullable(Type.String({ maxLength: 120 }))),
  description: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  images: Type.Optional(
    // http(s) only: these URLs are rendered to customers, so javascript: or data: URIs are refused.
    Type.Array(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 }), {
      maxItems: 20,
      description: 'Image URLs (absolute http or https URIs), at most 20; a PATCH replaces the list',
    }),
  ),
  price_pence: Type.Optional(Pence('Price in the smallest currency unit; default 0')),
  currency: Type.Optional(
    Type.String({ pattern: '^[A-Z]{3}$', description: "ISO 4217 code; defaults to the store's currency" }),
  ),
  price_type: Type.Optional(
    Type.Union(
      PRICE_TYPES.map((v) => Type.Literal(v)),
      { description: 'Default fixed' },
    ),
  ),
  party_min: Type.Optional(Party('Smallest party (1 to 1000, default 1); must not exceed party_max')),
  party_max: Type.Optional(Party('Largest party (1 to 1000; defaults to party_min)')),
  deposit_policy: Type.Optional(
    Nullable(
      Type.Object(
        {},
        {
          additionalProperties: true,
          maxProperties: 50,
          description:
            'Stored as given and never returned; it has no effect yet (no charge is wired from it). null clears it.',
        },
      ),
    ),
  ),
  buffer_before_min: Type.Optional(Minutes('Unit occupied before; default 0')),
  buffer_after_min: Type.Optional(Minutes('Unit occupied after; default 0')),
  processing_min: Type.Optional(Minutes('Processing time; default 0')),
  location_type: Type.Optional(
    Type.Union(
      LOCATION_TYPES.map((v) => Type.Literal(v)),
      { description: 'Default on_premises' },
    ),
  ),
  rebook_interval_days: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 3650 }))),
  online_visible: Type.Optional(Type.Boolean({ description: 'Default true' })),
  sort: Type.Optional(Sort),
};

export const ListQuery = archivableListQuery('Include archived (is_active false) services');

export const CreateBody = Type.Object(
  {
    store_id: StoreIdField,
    name: ItemName,
    duration_min: Minutes('Length of the booking in minutes'),
    client_token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Idempotent create: a retry with the same token returns the service the first call created, unchanged',
      }),
    ),
    ...serviceFields,
    variants: Type.Optional(
      Type.Array(NewVariant, { maxItems: MAX_ITEMS, description: 'Variants to create with the service' }),
    ),
    addons: Type.Optional(
      Type.Array(NewAddon, { maxItems: MAX_ITEMS, description: 'Add-ons to create with the service' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateBody = Static<typeof CreateBody>;

export const UpdateBody = Type.Object(
  {
    store_id: StoreIdField,
    name: Type.Optional(ItemName),
    duration_min: Type.Optional(Minutes('Length of the booking in minutes; booked appointments keep their snapshot')),
    ...serviceFields,
    is_active: Type.Optional(
      Type.Boolean({ description: 'false archives the service (never deletes it); true restores it' }),
    ),
    variants: Type.Optional(
      Type.Array(VariantChange, {
        maxItems: MAX_ITEMS,
        description:
          'An item with id updates that variant of this service (only the fields sent); an item without id creates a variant (name required). Variants not listed are left unchanged; archive one with is_active false. Nothing is deleted.',
      }),
    ),
    addons: Type.Optional(
      Type.Array(AddonChange, {
        maxItems: MAX_ITEMS,
        description:
          'An item with id updates that add-on of this service (only the fields sent); an item without id creates an add-on (name required). Add-ons not listed are left unchanged; archive one with is_active false. Nothing is deleted.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateBody = Static<typeof UpdateBody>;

export const ServiceParams = Type.Object({ serviceId: Uuid }, { additionalProperties: false });

export const ServiceResponse = Type.Object({ service: Service });
export const ServiceListResponse = Type.Object({ services: Type.Array(Service) });
