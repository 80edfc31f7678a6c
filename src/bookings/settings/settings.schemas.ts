// The store's online booking settings (GET/PATCH /api/v1/bookings/settings). The operator surface
// (PATCH /admin/v1/stores/{storeId}) accepts the same fields.
import { Type, type Static } from 'typebox';
import { Nullable, Uuid } from '../../platform/http/schemas.ts';

const Minutes = (min: number, max: number, description: string) =>
  Type.Integer({ minimum: min, maximum: max, description });

/** The writable settings; the bounds are the stores table's CHECK constraints. */
export const SettingsFields = {
  slot_step_min: Minutes(5, 240, 'minutes between offered starts, counted from local midnight; default 15'),
  min_notice_min: Minutes(0, 43200, 'no slot starts sooner than this after now; default 60'),
  booking_horizon_days: Minutes(1, 365, 'no slot starts this many days or more after now; default 90'),
  hold_minutes: Minutes(1, 60, 'how long a checkout hold lasts; default 10'),
  deposit_due_minutes: Minutes(5, 10080, 'an unpaid pending_payment booking older than this is cancelled; default 30'),
  reminder_lead_hours: Minutes(1, 168, 'how long before the start a reminder goes; default 24'),
  cancellation_window_min: Minutes(
    0,
    525600,
    'a customer cannot cancel within this many minutes of the start; 0 = any time before',
  ),
  cors_origins: Type.Array(Type.String({ maxLength: 200 }), {
    maxItems: 20,
    description:
      "origins (scheme://host[:port]) of the shop's own website allowed to call the customer operations from a browser, and to frame the booking page",
  }),
  booking_page_slug: Nullable(
    Type.String({
      pattern: '^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$',
      description:
        "the booking page's address, /book/{slug}: lower-case letters, digits and hyphens (1 to 50), unique across stores; default null",
    }),
  ),
  booking_page_enabled: Type.Boolean({
    description: 'the booking page answers at /book/{slug}; needs a slug; default false',
  }),
  calendar_feed_contacts: Type.Boolean({
    description:
      'staff calendar feeds show customers\' names, emails and phones; default false (service and "Booked" only)',
  }),
  // The shop's details on its booking page (issue 41); blank is null. Bounds: shop-details.ts and migration 205.
  address: Nullable(
    Type.String({
      maxLength: 300,
      description:
        "the shop's postal address, lines separated by line breaks; shown on the booking page with a map link; default null",
    }),
  ),
  phone: Nullable(
    Type.String({
      maxLength: 40,
      description: 'a UK number, landline or mobile, in any spelling; kept as E.164 (+44...); default null',
    }),
  ),
  website: Nullable(Type.String({ maxLength: 300, description: "the shop's own website, https only; default null" })),
  about: Nullable(
    Type.String({ maxLength: 600, description: 'a short text about the shop for its booking page; default null' }),
  ),
};
export const SETTING_NAMES = Object.keys(SettingsFields) as Array<keyof typeof SettingsFields>;

export const SettingsQuery = Type.Object({ store_id: Uuid }, { additionalProperties: false });
export const PatchSettingsBody = Type.Object(
  { store_id: Uuid, ...Object.fromEntries(Object.entries(SettingsFields).map(([k, v]) => [k, Type.Optional(v)])) } as {
    store_id: typeof Uuid;
  } & { [K in keyof typeof SettingsFields]: ReturnType<typeof Type.Optional<(typeof SettingsFields)[K]>> },
  { additionalProperties: false, minProperties: 2 },
);
export type PatchSettingsBody = Static<typeof PatchSettingsBody>;

export const Settings = Type.Object({ store_id: Uuid, timezone: Type.String(), ...SettingsFields });
export const SettingsResponse = Type.Object({ settings: Settings });
export type SettingsResponse = Static<typeof SettingsResponse>;
