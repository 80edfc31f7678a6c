// The wire shapes shared by the staff routes (tag "Staff").
import { Type, type Static } from 'typebox';
import { Instant, Nullable, NullableInstant, NullableUuid, Uuid } from '../platform/http/schemas.ts';
import { PERMISSIONS } from '../platform/auth/actor.ts';
import { ROLES } from './roles.ts';

// A plain address check: one @, a dot in the domain, no spaces; the mail server decides the rest.
export const Email = Type.String({
  minLength: 3,
  maxLength: 254,
  pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
  description: 'An email address',
});
export const RoleField = Type.Union(
  ROLES.map((r) => Type.Literal(r)),
  { description: 'owner, manager, front_desk or staff' },
);
// One permission today: a plain enum of strings (a one-branch union would be an illogical anyOf).
export const PermissionsField = Type.Array(Type.String({ enum: [...PERMISSIONS] }), {
  uniqueItems: true,
  maxItems: 10,
});
// Long passphrases are welcome: 256 characters accepted (NIST asks at least 64); the rules are the service's.
export const Password = Type.String({ minLength: 1, maxLength: 1024 });

export const StaffPerson = Type.Object({ id: Uuid, name: Type.String(), email: Type.String() });

export const StoreChoice = Type.Object({ store_id: Uuid, name: Type.String(), role: RoleField });

/** Who is signed in, at which store, as what: GET /me's answer, and the start of a sign-in's. */
const session = {
  staff: StaffPerson,
  store_id: Uuid,
  role: RoleField,
  permissions: Type.Array(Type.String()),
  unit_id: NullableUuid,
};

export const SignedIn = Type.Object({
  ...session,
  /** The other stores the person may sign in to (sign in again with store_id). */
  stores: Type.Array(StoreChoice),
});
export type SignedIn = Static<typeof SignedIn>;

export const Me = Type.Object(session);
export type Me = Static<typeof Me>;

export const SessionItem = Type.Object({
  id: Uuid,
  created_at: Instant,
  last_seen_at: Instant,
  expires_at: Instant,
  user_agent: Nullable(Type.String()),
  current: Type.Boolean(),
});
export const SessionList = Type.Object({ sessions: Type.Array(SessionItem) });
export const Ended = Type.Object({ ended: Type.Boolean() });
export const SessionParams = Type.Object({ sessionId: Uuid }, { additionalProperties: false });

export const SignInBody = Type.Object(
  { email: Email, password: Password, store_id: Type.Optional(Uuid) },
  { additionalProperties: false },
);
export type SignInBody = Static<typeof SignInBody>;

export const AcceptBody = Type.Object(
  {
    token: Type.String({ minLength: 20, maxLength: 100 }),
    name: Type.String({ minLength: 1, maxLength: 120 }),
    password: Password,
    /** Only for the first-run setup link, which names no one: the first owner's email. */
    email: Type.Optional(Email),
  },
  { additionalProperties: false },
);
export type AcceptBody = Static<typeof AcceptBody>;

export const InviteBody = Type.Object(
  {
    email: Email,
    role: RoleField,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    permissions: Type.Optional(PermissionsField),
    unit_id: Type.Optional(NullableUuid),
  },
  { additionalProperties: false },
);
export type InviteBody = Static<typeof InviteBody>;

export const Invitation = Type.Object({
  invitation: Type.Object({ id: Uuid, email: Type.String(), role: RoleField, expires_at: Instant }),
});

export const StaffMember = Type.Object({
  id: Uuid,
  email: Type.String(),
  name: Type.String(),
  role: RoleField,
  permissions: Type.Array(Type.String()),
  unit_id: NullableUuid,
  last_sign_in_at: NullableInstant,
  disabled: Type.Boolean(),
});
export type StaffMember = Static<typeof StaffMember>;
export const StaffList = Type.Object({ staff: Type.Array(StaffMember) });
export const StaffParams = Type.Object({ staffId: Uuid }, { additionalProperties: false });
export const StaffPatch = Type.Object(
  {
    role: Type.Optional(RoleField),
    permissions: Type.Optional(PermissionsField),
    unit_id: Type.Optional(NullableUuid),
    disabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type StaffPatch = Static<typeof StaffPatch>;
export const StaffMemberAnswer = Type.Object({ staff: StaffMember });
