// Request and response schemas of the operator surface.
import { Type } from 'typebox';
import { Instant, Nullable, NullableInstant, NullableString, Uuid } from '../platform/http/schemas.ts';
import { ENTITLEMENTS, PERMISSIONS, MERCHANT_SCOPES, CUSTOMER_SCOPES } from '../platform/auth/actor.ts';
import { SettingsFields } from '../bookings/settings/settings.schemas.ts';

const strict = { additionalProperties: false } as const;
// One value is a literal, not a one-branch anyOf.
const literals = (values: readonly string[]) =>
  values.length === 1 ? Type.Literal(values[0]) : Type.Union(values.map((v) => Type.Literal(v)));

export const WALKIN_MODES = ['appointments_only', 'walk_ins_only', 'mixed'] as const;

const storeFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/London' }),
  currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, e.g. GBP' }),
  walkin_mode: Type.Optional(Nullable(literals(WALKIN_MODES))),
  called_hold_minutes: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1440 }))),
  cancellation_window_min: Type.Optional(Type.Integer({ minimum: 0, maximum: 525600 })),
  last_seating_offset_min: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1440 }))),
  // The online booking settings (the merchant's GET/PATCH /api/v1/bookings/settings), cors_origins included.
  slot_step_min: Type.Optional(SettingsFields.slot_step_min),
  min_notice_min: Type.Optional(SettingsFields.min_notice_min),
  booking_horizon_days: Type.Optional(SettingsFields.booking_horizon_days),
  hold_minutes: Type.Optional(SettingsFields.hold_minutes),
  deposit_due_minutes: Type.Optional(SettingsFields.deposit_due_minutes),
  reminder_lead_hours: Type.Optional(SettingsFields.reminder_lead_hours),
  cors_origins: Type.Optional(SettingsFields.cors_origins),
  booking_page_slug: Type.Optional(SettingsFields.booking_page_slug),
  booking_page_enabled: Type.Optional(SettingsFields.booking_page_enabled),
  // The shop's details on its booking page, as the merchant's settings take them (issue 41).
  address: Type.Optional(SettingsFields.address),
  phone: Type.Optional(SettingsFields.phone),
  website: Type.Optional(SettingsFields.website),
  about: Type.Optional(SettingsFields.about),
};

export const CreateStoreBody = Type.Object(storeFields, strict);
export const UpdateStoreBody = Type.Partial(Type.Object(storeFields), { ...strict, minProperties: 1 });

export const Store = Type.Object({
  id: Uuid,
  name: Type.String(),
  timezone: Type.String(),
  currency: Type.String(),
  walkin_mode: NullableString,
  called_hold_minutes: Nullable(Type.Integer()),
  cancellation_window_min: Type.Integer(),
  last_seating_offset_min: Nullable(Type.Integer()),
  slot_step_min: Type.Integer(),
  min_notice_min: Type.Integer(),
  booking_horizon_days: Type.Integer(),
  hold_minutes: Type.Integer(),
  deposit_due_minutes: Type.Integer(),
  reminder_lead_hours: Type.Integer(),
  cors_origins: Type.Array(Type.String()),
  booking_page_slug: NullableString,
  booking_page_enabled: Type.Boolean(),
  address: NullableString,
  phone: NullableString,
  website: NullableString,
  about: NullableString,
  created_at: Instant,
});
export const StoreResult = Type.Object({ store: Store });

export const StoreParams = Type.Object({ storeId: Uuid }, strict);
export const CustomerParams = Type.Object({ customerId: Uuid }, strict);

export const CreateCustomerBody = Type.Object(
  {
    name: Type.Optional(Nullable(Type.String({ maxLength: 80 }))),
    email: Type.Optional(Nullable(Type.String({ maxLength: 254, description: 'trimmed and lower-cased' }))),
    phone: Type.Optional(Nullable(Type.String({ maxLength: 40, description: 'a UK mobile in any spelling' }))),
  },
  strict,
);
export const AdminCustomer = Type.Object({
  id: Uuid,
  name: NullableString,
  email: NullableString,
  phone: NullableString,
  erased_at: NullableInstant,
  created_at: Instant,
});
export const CustomerResult = Type.Object({ customer: AdminCustomer });

export const MembershipBody = Type.Object({ customer_id: Uuid }, strict);
export const MembershipResult = Type.Object({
  membership: Type.Object({
    store_id: Uuid,
    customer_id: Uuid,
    is_member: Type.Boolean(),
    member_since: NullableInstant,
    first_seen_at: Instant,
    created: Type.Boolean({ description: 'false when the customer was already a member' }),
  }),
});

export const EraseResult = Type.Object({ customer_id: Uuid, erased: Type.Boolean(), erased_at: Instant });

export const CreateHoldBody = Type.Object(
  { unit_id: Uuid, starts_at: Instant, ends_at: Instant, expires_at: Type.Optional(Nullable(Instant)) },
  strict,
);
export const HoldResult = Type.Object({
  hold: Type.Object({ id: Uuid, unit_id: Uuid, starts_at: Instant, ends_at: Instant, expires_at: NullableInstant }),
});

const ttl = Type.Optional(
  Type.Integer({ minimum: 60, maximum: 30 * 24 * 3600, default: 3600, description: 'lifetime in seconds' }),
);
export const TokenBody = Type.Union([
  Type.Object(
    {
      kind: Type.Literal('merchant'),
      store_id: Uuid,
      user_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
      staff_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 120 }))),
      scopes: Type.Optional(Type.Array(literals(MERCHANT_SCOPES), { uniqueItems: true })),
      entitlements: Type.Optional(Type.Array(literals(ENTITLEMENTS), { uniqueItems: true })),
      permissions: Type.Optional(Type.Array(literals(PERMISSIONS), { uniqueItems: true })),
      ttl_s: ttl,
    },
    strict,
  ),
  Type.Object(
    {
      kind: Type.Literal('customer'),
      customer_id: Uuid,
      scopes: Type.Optional(Type.Array(literals(CUSTOMER_SCOPES), { uniqueItems: true })),
      ttl_s: ttl,
    },
    strict,
  ),
]);
export const TokenResult = Type.Object({ token: Type.String(), expires_at: Instant });
