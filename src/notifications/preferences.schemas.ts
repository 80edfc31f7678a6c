// A signed-in customer's per-store notification preferences, camelCase as the spec shows them.
import { Type, type Static } from 'typebox';
import { Uuid } from '../platform/http/schemas.ts';

/** Each toggle with its column and the spec's default (the same defaults as the table's). */
export const TOGGLES = {
  messagesMuted: { column: 'messages_muted', default: false },
  classReminders: { column: 'class_reminders', default: true },
  classEventsEnabled: { column: 'class_events_enabled', default: true },
  voucherEventsEnabled: { column: 'voucher_events_enabled', default: true },
  stampEventsEnabled: { column: 'stamp_events_enabled', default: true },
  membershipEventsEnabled: { column: 'membership_events_enabled', default: true },
  penaltyEventsEnabled: { column: 'penalty_events_enabled', default: true },
  marketingEnabled: { column: 'marketing_enabled', default: false },
} as const;
export type Toggle = keyof typeof TOGGLES;
export const TOGGLE_NAMES = Object.keys(TOGGLES) as Toggle[];
export type Toggles = Record<Toggle, boolean>;

export const DEFAULT_TOGGLES: Toggles = Object.freeze(
  Object.fromEntries(TOGGLE_NAMES.map((t) => [t, TOGGLES[t].default])) as Toggles,
);

export const PreferenceRow = Type.Object({
  storeId: Uuid,
  storeName: Type.String(),
  messagesMuted: Type.Boolean(),
  classReminders: Type.Boolean(),
  classEventsEnabled: Type.Boolean(),
  voucherEventsEnabled: Type.Boolean(),
  stampEventsEnabled: Type.Boolean(),
  membershipEventsEnabled: Type.Boolean(),
  penaltyEventsEnabled: Type.Boolean(),
  marketingEnabled: Type.Boolean(),
});
export type PreferenceRow = Static<typeof PreferenceRow>;

export const ListQuery = Type.Object({}, { additionalProperties: false });
export const ListResponse = Type.Object({ preferences: Type.Array(PreferenceRow) });
export type ListResponse = Static<typeof ListResponse>;

export const UpsertBody = Type.Object(
  {
    storeId: Uuid,
    messagesMuted: Type.Optional(Type.Boolean()),
    classReminders: Type.Optional(Type.Boolean()),
    classEventsEnabled: Type.Optional(Type.Boolean()),
    voucherEventsEnabled: Type.Optional(Type.Boolean()),
    stampEventsEnabled: Type.Optional(Type.Boolean()),
    membershipEventsEnabled: Type.Optional(Type.Boolean()),
    penaltyEventsEnabled: Type.Optional(Type.Boolean()),
    marketingEnabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UpsertBody = Static<typeof UpsertBody>;

export const UpsertResponse = Type.Object({ storeId: Uuid, updated: Type.Boolean() });
export type UpsertResponse = Static<typeof UpsertResponse>;
