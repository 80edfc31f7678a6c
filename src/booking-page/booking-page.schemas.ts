// Request and response schemas of the public booking page's API (/api/v1/book/{slug}/...). The page
// talks to the API only through these operations (tag "Booking page"), via the generated client.
import { Type, type Static } from 'typebox';
import { Instant, Nullable, NullableString, Uuid } from '../platform/http/schemas.ts';
import { AvailabilityQuery } from '../bookings/availability/availability.schemas.ts';
import { Appointment } from '../bookings/appointments/appointments.schemas.ts';
import { ConfirmBody, Hold } from '../bookings/holds/holds.schemas.ts';
import { ShopWindow } from './shop-window.schemas.ts';

const strict = { additionalProperties: false } as const;

export const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$';
export const PageParams = Type.Object({ slug: Type.String({ pattern: SLUG_PATTERN, maxLength: 50 }) }, strict);
export const PageHoldParams = Type.Object(
  { slug: Type.String({ pattern: SLUG_PATTERN, maxLength: 50 }), holdId: Uuid },
  strict,
);

/** A deposit policy as the store keeps it on a service: a fixed amount or a share of the price. */
const Deposit = Nullable(
  Type.Object({
    amount_pence: Type.Optional(Type.Integer({ description: 'a fixed deposit, capped at the price' })),
    percent: Type.Optional(Type.Number({ description: 'a share of the price, rounded to the penny' })),
  }),
);

export const PageService = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: NullableString,
  category: NullableString,
  duration_min: Type.Integer(),
  price_pence: Type.Integer(),
  price_type: Type.String({ description: 'fixed, from or per_person' }),
  party_min: Type.Integer(),
  party_max: Type.Integer(),
  deposit: Deposit,
  variants: Type.Array(
    Type.Object({
      id: Uuid,
      name: Type.String(),
      duration_min: Nullable(Type.Integer()),
      price_pence: Nullable(Type.Integer()),
    }),
  ),
  addons: Type.Array(
    Type.Object({ id: Uuid, name: Type.String(), extra_min: Type.Integer(), extra_pence: Type.Integer() }),
  ),
});

export const BookingPageResponse = Type.Object({
  page: Type.Object({
    slug: Type.String(),
    store_name: Type.String(),
    timezone: Type.String({ description: "the store's IANA zone: every time on the page is its wall time" }),
    currency: Type.String(),
    hold_minutes: Type.Integer({ description: 'how long a chosen slot is held' }),
    cancellation_window_min: Type.Integer({
      description: 'a booking cannot be cancelled or moved within this many minutes of its start; 0 = any time before',
    }),
    services: Type.Array(PageService, { description: 'services shown online, by sort then name' }),
    staff: Type.Array(Type.Object({ unit_id: Uuid, name: Type.String() }), {
      description: 'units bookable online, in diary order',
    }),
    shop: ShopWindow,
    sign_in: Type.String({
      enum: ['email', 'email_or_sms', 'sms', 'none'],
      description:
        "how a sign-in code can reach the customer here; none: the page shows the shop's phone and address instead of the sign-in step",
    }),
  }),
});
export type BookingPageResponse = Static<typeof BookingPageResponse>;

/** The availability search's question without store_id (the slug names the store). */
const { store_id: _storeId, ...pageAvailabilityFields } = AvailabilityQuery.properties;
export const PageAvailabilityQuery = Type.Object(pageAvailabilityFields, strict);
export type PageAvailabilityQuery = Static<typeof PageAvailabilityQuery>;

export const ChallengeResponse = Type.Object({
  algorithm: Type.String(),
  challenge: Type.String(),
  maxnumber: Type.Optional(Type.Integer()),
  salt: Type.String(),
  signature: Type.String(),
});

const Altcha = Type.String({
  minLength: 1,
  maxLength: 4000,
  description: "the ALTCHA widget's base64 payload for a challenge from getBookingPageChallenge",
});
const Honeypot = Type.Optional(Type.String({ maxLength: 500, description: 'leave empty (a field people never see)' }));

export const PageHoldBody = Type.Object(
  {
    service_id: Uuid,
    variant_id: Type.Optional(Nullable(Uuid)),
    addon_ids: Type.Optional(Type.Array(Uuid, { maxItems: 50, uniqueItems: true })),
    unit_id: Type.Optional(Nullable(Uuid)),
    starts_at: Instant,
    party_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    altcha: Altcha,
    website: Honeypot,
  },
  strict,
);
export type PageHoldBody = Static<typeof PageHoldBody>;

export const PageHoldResponse = Type.Object({
  hold: Hold,
  page_session: Type.String({ description: 'send back as X-Page-Session; keep for this browser tab' }),
});
export type PageHoldResponse = Static<typeof PageHoldResponse>;

export const PageReleaseResponse = Type.Object({ hold_id: Uuid, released: Type.Boolean(), noop: Type.Boolean() });

export const SendCodeBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    altcha: Altcha,
    website: Honeypot,
  },
  strict,
);
export type SendCodeBody = Static<typeof SendCodeBody>;
export const SendCodeResponse = Type.Object({ sent: Type.Literal(true), expires_in_s: Type.Integer() });

export const VerifyCodeBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    code: Type.String({ pattern: '^[0-9]{6}$' }),
    name: Type.Optional(Nullable(Type.String({ maxLength: 80, description: 'used only when the customer is new' }))),
    phone: Type.Optional(
      Nullable(Type.String({ maxLength: 40, description: 'a UK mobile; used only when the customer is new' })),
    ),
  },
  strict,
);
export type VerifyCodeBody = Static<typeof VerifyCodeBody>;
export const VerifyCodeResponse = Type.Object({
  token: Type.String({ description: 'a customer token of this store; send as Authorization: Bearer' }),
  expires_in_s: Type.Integer(),
  customer: Type.Object({ id: Uuid, name: NullableString, email: Type.String() }),
});
export type VerifyCodeResponse = Static<typeof VerifyCodeResponse>;

export const SendSmsCodeBody = Type.Object(
  {
    phone: Type.String({ minLength: 1, maxLength: 40, description: 'a UK mobile, in any spelling' }),
    altcha: Altcha,
    website: Honeypot,
  },
  strict,
);
export type SendSmsCodeBody = Static<typeof SendSmsCodeBody>;

export const VerifySmsCodeBody = Type.Object(
  {
    phone: Type.String({ minLength: 1, maxLength: 40, description: 'the UK mobile the code was texted to' }),
    code: Type.String({ pattern: '^[0-9]{6}$' }),
    name: Type.Optional(Nullable(Type.String({ maxLength: 80, description: 'used only when the customer is new' }))),
    email: Type.Optional(
      Nullable(Type.String({ format: 'email', maxLength: 254, description: 'used only when the customer is new' })),
    ),
  },
  strict,
);
export type VerifySmsCodeBody = Static<typeof VerifySmsCodeBody>;
export const VerifySmsCodeResponse = Type.Object({
  token: Type.String({ description: 'a customer token of this store; send as Authorization: Bearer' }),
  expires_in_s: Type.Integer(),
  customer: Type.Object({
    id: Uuid,
    name: NullableString,
    email: NullableString,
    phone: Type.String({ description: 'E.164' }),
  }),
});

/** The customer API's confirm body (bookings/holds): the page confirms with the same note. */
export const PageConfirmBody = ConfirmBody;
export type PageConfirmBody = Static<typeof PageConfirmBody>;
export const PageConfirmResponse = Type.Object({
  appointment: Appointment,
  reused: Type.Boolean({ description: "true when a retried confirm returned the first answer's booking" }),
  manage_url: Type.String({ description: 'the manage page, with its token in the fragment' }),
});
export type PageConfirmResponse = Static<typeof PageConfirmResponse>;

export const ManagedBookingResponse = Type.Object({
  appointment: Appointment,
  can_cancel: Type.Boolean(),
  can_reschedule: Type.Boolean(),
  cancel_deadline: Nullable(Instant),
  service_name: NullableString,
  unit_name: NullableString,
  // What is booked: a move to a hold of another variant or other add-ons is priced afresh (pricing.md).
  variant_id: Nullable(Uuid),
  addon_ids: Type.Array(Uuid, { description: 'the add-ons booked' }),
});
export type ManagedBookingResponse = Static<typeof ManagedBookingResponse>;

export const ManageCancelBody = Type.Object(
  { reason: Type.Optional(Nullable(Type.String({ maxLength: 500 }))) },
  strict,
);
export type ManageCancelBody = Static<typeof ManageCancelBody>;
export const ManageCancelResponse = Type.Object({ appointment: Appointment });

export const ManageRescheduleBody = Type.Object({ hold_id: Uuid }, strict);
export const ManageRescheduleResponse = Type.Object({
  appointment: Appointment,
  manage_url: Type.String({
    description:
      "the moved booking's manage page, valid until its new end (the booking keeps its id, so the old link still names it until the old end)",
  }),
});
export type ManageRescheduleResponse = Static<typeof ManageRescheduleResponse>;
