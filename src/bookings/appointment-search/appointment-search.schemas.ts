// Appointment history search (searchAppointmentPeople): the request and the Person summary.
import { Type, type Static } from 'typebox';
import { Instant, NullableInstant, NullableString, NullableUuid, Uuid } from '../../platform/http/schemas.ts';

export const DEFAULT_PEOPLE = 20;
export const MAX_PEOPLE = 100;
export const DEFAULT_VISITS = 12;
export const MAX_VISITS = 50;
export const MIN_QUERY_LENGTH = 2;

export const SearchQuery = Type.Object(
  {
    store_id: Uuid,
    q: Type.String({ maxLength: 200, description: 'part of a name or email; at least 2 characters after trimming' }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PEOPLE, default: DEFAULT_PEOPLE })),
    visit_limit: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_VISITS, default: DEFAULT_VISITS })),
  },
  { additionalProperties: false },
);
export type SearchQuery = Static<typeof SearchQuery>;

export const RecentAppointment = Type.Object({
  id: Uuid,
  starts_at: Instant,
  ends_at: Instant,
  status: Type.String({ description: 'completed, checked_in, confirmed, cancelled, no_show or pending_payment' }),
  payment_status: Type.String(),
  price_pence: Type.Integer(),
  currency: Type.String(),
  unit_name: NullableString,
});
export type RecentAppointment = Static<typeof RecentAppointment>;

export const PersonSummary = Type.Object({
  key: Type.String({ description: "'c:<customer_id>' for an account, 'g:<name>|<email>' for a guest (normalised)" }),
  customer_id: NullableUuid,
  name: Type.String(),
  email: NullableString,
  currency: Type.String(),
  visits: Type.Integer(),
  no_shows: Type.Integer(),
  cancelled: Type.Integer(),
  unresolved: Type.Integer(),
  first_visit: NullableInstant,
  last_visit: NullableInstant,
  next_visit: NullableInstant,
  spend_pence: Type.Integer(),
  recent: Type.Array(RecentAppointment),
});
export type PersonSummary = Static<typeof PersonSummary>;

export const SearchResponse = Type.Object({
  store_id: Uuid,
  timezone: Type.String(),
  query: Type.String({ description: 'the normalised needle searched' }),
  total: Type.Integer({ description: 'matching people, counted before limit' }),
  people: Type.Array(PersonSummary),
});
export type SearchResponse = Static<typeof SearchResponse>;
